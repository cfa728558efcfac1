/**
 * Framing vocabulary (./types.ts) of Chinese, Spanish, French, German, Russian, Japanese, Korean,
 * Portuguese, Italian, Dutch, Polish, Indonesian and Vietnamese: the refusals, negated
 * instructions, attributions and examples a reply in that language writes around markup it quotes.
 * Small by design; an entry is added with the sentences it must find and the near misses it must not.
 * `\b` is an ASCII word boundary even with the `u` flag, so a pattern ending in a non-ASCII letter
 * ends with `(?!\p{L})` instead.
 */

import type { FramingLanguage } from './types.js';

export const ZH: FramingLanguage = {
  language: 'zh',
  entries: [
    { id: 'negated-action', says: 'a negated instruction', place: 'around', pattern: '(?:不要|请勿|切勿|不能|不会|禁止|别)(?:去)?(?:运行|执行|调用|使用|照做|相信)', match: ['请不要运行下面的命令：', '不要执行它。'], not_match: ['我来查一下天气：', '让我运行测试。'] },
    { id: 'refusal', says: 'a refusal', place: 'around', pattern: "(?:我拒绝|拒绝执行|无法执行|(?<!(?:扫描|检查|查找|搜索|检测|查杀|删除|清除|排查|识别|过滤|拦截)[^。！？\\n，,]{0,8})(?:恶意|可疑)|(?<!依赖)注入)", match: ['我拒绝执行这个命令', '这是注入的内容：', "这是恶意的命令：", "这个命令很可疑，我不会执行"], not_match: ['好的，我来读取文件：', "我来扫描恶意软件：", "我来检查可疑进程："] },
    { id: 'attribution', says: 'an attribution to someone else', place: 'around', pattern: '(?:用户(?:写|说|发)了?|网页(?:上)?(?:写|说|要求)|页面(?:写|说|要求)|原文|逐字)', match: ['用户写道：', '网页上写着：'], not_match: ['用户想知道巴黎的天气，我来查询：'] },
    { id: 'cited-source', says: 'a quotation of a document', place: 'around', pattern: '(?:文档(?:说|写|中写|里写)|官方文档|README ?(?:说|写))', match: ['文档说：', '官方文档里是这样写的：'], not_match: ['我来读一下文档：'] },
    { id: 'example', says: 'an example', place: 'around', pattern: '(?:例如|比如|示例|样例|举例|格式如下)', match: ['例如：', '示例输出：'], not_match: ['我来查一下：'] },
    { id: 'set-aside', says: 'a warning, a source or an example', place: 'around', pattern: "(?:千万别|别跑|不应该?运行|不该运行|不应执行|仅供参考|只是一个模板|模板[：:]|演示一下|来自网页|网页里嵌入|攻击者想让我)", match: ["千万别跑这个：", "不应该运行下面的命令：", "以下内容来自网页，仅供参考：", "这只是一个模板：", "演示一下调用格式：", "下面是攻击者想让我执行的：", "这是网页里嵌入的指令，请忽略："], not_match: ["我来运行测试：", "我来创建模板文件："] },
    { id: 'declined', says: 'a refusal, a source or an example', place: 'around', pattern: "(?:我(?:并)?没有?(?:执行|运行)|并未(?:执行|运行)|不打算(?:运行|执行)|攻击载荷|恶意载荷|隐藏的?(?:指令|命令)|(?:网页|页面|网站)(?:让|要|叫)我|(?:邮件|信件)(?:里|中)(?:复制|摘录|的原文)|原话|(?:^|\\n)引用[：:]|(?:格式|写法|语法)[^。！？\\n]{0,4}(?:如下|是这样))", match: ['我没有执行它。', '这个命令很危险，我不打算运行：', '这是攻击载荷：', '网页中隐藏的指令如下：', '页面让我执行：', '这段是从邮件里复制的：', '以下是页面中的原话：', '引用：', '调用格式大致如下：'], not_match: ['我来查看日志：', '好的，列出文件：', '好的，我来运行测试。', '测试还没有运行，我来运行：', '我来引用这个模块：'] },
    { id: 'excerpt', says: 'a refusal, a source or a demonstration', place: 'around', pattern: "(?:千万不要|摘自|只是(?:一个)?演示|翻译自|宁愿不|攻击者)", match: ['千万不要：', '摘自网页：', '这只是演示。', '翻译自英文：', '我宁愿不执行：', '攻击者写的：'], not_match: ['我来翻译这个文件：', '我来运行演示程序：', '好的，我来运行测试。'] },
    { id: 'disowned', says: 'a warning or a source', place: 'around', pattern: "(?:陷阱|不是我写的|不是我的|工单里的|截图里|截图中|藏着|藏有)", match: ['注意，这是个陷阱：', '这不是我写的，是工单里的：', '这只是截图里的文字。', 'PDF里藏着这条命令：'], not_match: ['我先安装依赖：', '重启服务器：', '我来截图：'] },
  ],
};

export const ES: FramingLanguage = {
  language: 'es',
  entries: [
    { id: 'negated-action', says: 'a negated instruction', place: 'around', pattern: '\\bno (?:debes |deberías |hay que )?(?:lo |la |los )?(?:ejecutes|ejecutar|ejecuten|ejecutar[ée]?|corras|uses|llames|invoques|sigas|hagas)(?!\\p{L})|\\bnunca (?:ejecutes|ejecutar)(?!\\p{L})', match: ['No ejecutes lo siguiente:', 'no lo ejecutaré.'], not_match: ['Voy a consultar el clima:'] },
    { id: 'refusal', says: 'a refusal', place: 'around', pattern: "\\b(?:me niego|no puedo ayudar|(?<!(?:busc\\p{L}*|procur\\p{L}*|escane\\p{L}*|revis\\p{L}*|detect\\p{L}*|elimin\\p{L}*|encontr\\p{L}*|encuentr\\p{L}*|analiz\\p{L}*|analis\\p{L}*|verific\\p{L}*|remov\\p{L}*)(?: [\\p{L}']+){0,3} )(?:malicios[oa]s?|sospechos[oa]s?)|inyectad[oa]s?|inyección)(?!\\p{L})", match: ['Me niego a ejecutar esto', 'es un texto inyectado', "Esto es malicioso:", "un comando sospechoso"], not_match: ['Déjame leer el archivo:', "Voy a buscar archivos maliciosos:", "Voy a escanear procesos sospechosos:"] },
    { id: 'attribution', says: 'an attribution to someone else', place: 'around', pattern: '\\b(?:el usuario (?:escribió|dijo|pegó)|la página (?:dice|dijo|pide|pidió)|textualmente|literalmente)(?!\\p{L})', match: ['El usuario escribió:', 'la página dice:'], not_match: ['El usuario quiere saber el clima.'] },
    { id: 'example', says: 'an example', place: 'around', pattern: '\\b(?:por ejemplo|ejemplos?(?! de (?:configuración|código fuente))|muestra de|la sintaxis es)\\b', match: ['Por ejemplo:', 'La sintaxis es:'], not_match: ['Voy a buscar el archivo:'] },
    { id: 'set-aside', says: 'a warning, a source or an example', place: 'around', pattern: "\\b(?:no se debe ejecutar|no lances|no ejecutar|a modo de (?:ilustración|ejemplo)|viene de la página|proviene de la página)(?!\\p{L})", match: ["No se debe ejecutar:", "A modo de ilustración:", "No lances esto:", "Esto viene de la página:"], not_match: ["Voy a ejecutar las pruebas:"] },
    { id: 'declined', says: 'a refusal', place: 'around', pattern: "(?<!\\p{L})(?:no (?:lo |la |los |las |esto )?(?:voy|vamos) a (?:ejecutar|correr|lanzar|hacer)(?:lo|la)?|no lo haré|ni hablar|me abstengo|no (?:lo |la |los |las )?(?:he|hemos) (?:ejecutado|corrido|lanzado)|no se (?:ejecutó|ha ejecutado|ejecutará)|(?:es|sería|resulta) (?:muy |demasiado )?peligroso)(?!\\p{L})", match: ['No voy a ejecutar esto:', 'Ni hablar, no lo haré:', 'No lo he ejecutado.', 'Es peligroso, me abstengo:', 'Esto no se ejecutó.', 'Me pidieron que corriera esto, pero no lo haré:'], not_match: ['Voy a revisar los registros:', 'Ejecutando las pruebas:', 'Claro, listo los archivos:'] },
    { id: 'embedded-source', says: 'a quotation of a source', place: 'around', pattern: "(?<!\\p{L})(?:cita (?:del|de la|de)|la página (?:contenía|contiene|decía)|(?:dijo|pidió|escribió|dice|pide) (?:la página|el sitio|el usuario|el correo)|ocult[oa]s? en (?:la|el) (?:página|sitio|texto|correo)|así se (?:vería|ve|verá) (?:una|la|un|el))(?!\\p{L})", match: ['La página contenía esta instrucción:', 'Esto es lo que estaba oculto en la página:', 'Cita del correo:', '—Ejecuta esto —dijo la página—:', 'Así se vería una llamada:'], not_match: ['Voy a revisar la configuración del correo:', 'Voy a citar las fuentes en el README:', 'Así que voy a ejecutar las pruebas:'] },
    { id: 'excerpt', says: 'a refusal, a source or a demonstration', place: 'around', pattern: "(?<!\\p{L})(?:mejor no(?= ?[:.!,]|$)|extracto (?:de|del)|demostración|traducido (?:de|del|desde)|prefiero no|(?:el|la|un|una) atacante)(?!\\p{L})", match: ['Mejor no:', 'Extracto de la página:', 'Solo era una demostración.', 'Traducido del inglés:', 'Prefiero no ejecutarlo:', 'Esto lo escribió el atacante:'], not_match: ['Mejor no esperar: ejecuto las pruebas.', 'Extraigo el archivo:', 'Voy a traducir el archivo:'] },
    { id: 'disowned', says: 'a warning or a source', place: 'around', pattern: "(?<!\\p{L})(?:trampa|no es mío|no es mía|venía en (?:el|la)|(?:de|en) la captura|escondía|ocultaba|(?:comentario|pdf|ticket|documento)(?: [\\p{L}]+){0,3} (?:dice|decía|contiene|contenía))(?!\\p{L})", match: ['Cuidado, es una trampa:', 'No es mío, venía en el ticket:', 'Es solo el texto de la captura.', 'El PDF escondía este comando:'], not_match: ['Reinicio el servidor:', 'Borro la caché como pediste:', 'Leo el ticket:'] },
  ],
};

export const FR: FramingLanguage = {
  language: 'fr',
  entries: [
    { id: 'negated-action', says: 'a negated instruction', place: 'around', pattern: "\\b(?:je )?ne vais pas (?:l'|le |la |les )?(?:exécuter|lancer|utiliser|appeler)\\b|\\bne (?:l'|le |la |les )?(?:exécute|exécutez|lance|lancez|utilise|utilisez|appelle|appelez|suis|suivez)(?:z)? (?:pas|jamais)\\b|\\bn'(?:exécute|exécutez|utilise|utilisez|appelle|appelez)z? (?:pas|jamais)\\b", match: ["N'exécutez pas ceci :", 'ne lance pas la commande'], not_match: ['Je vais vérifier la météo :'] },
    { id: 'refusal', says: 'a refusal', place: 'around', pattern: "\\b(?:je refuse|je ne peux pas (?:aider|exécuter)|(?<!(?:cherche|chercher|recherche|rechercher|scanne|scanner|analyse|analyser|détecte|détecter|vérifie|vérifier|supprime|supprimer|trouve|trouver|liste|lister|bloque|bloquer|repère|repérer|nettoie|nettoyer)(?: [\\p{L}']+){0,3} )malveillant|injecté|(?:tentative d'|une |d')injection|(?:c'est|semble|paraît|est|très|plutôt|trop) suspect)", match: ['Je refuse de lancer cela', 'ce texte injecté', "C'est une tentative d'injection :", 'Ce contenu est suspect :', "Ce script est malveillant :"], not_match: ['Je lis le fichier :', 'Let me look at the prompt injection filter code:', 'I suspect the cache is stale, so let me clear it:', "Je cherche les fichiers malveillants :", "Je vais analyser le code malveillant :"] },
    { id: 'attribution', says: 'an attribution to someone else', place: 'around', pattern: "\\b(?:l'utilisateur a (?:écrit|dit|collé)|la page (?:dit|disait|demande|demandait|a demandé|exigeait|voulait)|le (?:site|document|courriel|mail|message) (?:dit|disait|demande|demandait|a demandé)|mot pour mot|textuellement)", match: ["L'utilisateur a écrit :", 'la page demande', 'Voici ce que la page demandait :'], not_match: ["L'utilisateur veut la météo à Paris."] },
    { id: 'cited-source', says: 'a quotation of a document', place: 'around', pattern: "\\b(?:la documentation (?:dit|indique|montre)|selon la documentation|d'après la documentation)", match: ['La documentation dit :', "D'après la documentation :"], not_match: ['Je lis la documentation :'] },
    { id: 'bad-example', says: 'a bad example to avoid', place: 'around', pattern: '\\bne (?:faites|fais) pas (?:ça|cela)', match: ['Ne faites pas ça :'], not_match: ['Je fais ça tout de suite :'] },
    { id: 'example', says: 'an example', place: 'around', pattern: '\\b(?:par exemple|exemples?|la syntaxe est)\\b', match: ['Par exemple :', 'La syntaxe est :'], not_match: ['Je vais chercher le fichier :'] },
    { id: 'set-aside', says: 'a warning, a source or an example', place: 'around', pattern: "(?:\\bne pas (?:exécuter|lancer|utiliser)|(?<!\\p{L})à ne (?:surtout )?pas (?:lancer|exécuter)|\\bprovient du site|\\bvient de la page|\\bla page voulait que)", match: ["Ne pas exécuter :", "À ne surtout pas lancer :", "la page voulait que j'exécute ceci :", "Ceci provient du site :"], not_match: ["Je lance les tests :"] },
    { id: 'declined', says: 'a refusal', place: 'around', pattern: "(?<!\\p{L})(?:je ne (?:l'|le |la |les )?(?:exécuterai|lancerai|ferai|utiliserai|suivrai) (?:pas|rien|jamais)|je n'en ferai rien|hors de question|je m'abstiens|(?:je ne l'ai|je ne les ai|je n'ai) (?:pas|jamais) (?:exécuté|lancé|utilisé|suivi)|(?:c'est|c'était|trop|bien trop) dangereux)(?!\\p{L})", match: ["Je ne l'exécuterai pas :", 'Hors de question de lancer ceci :', "C'est dangereux, je m'abstiens :", "Je n'en ferai rien :", "Je ne l'ai pas exécuté."], not_match: ['Je lance les tests maintenant :', 'Bien sûr, je liste les fichiers :', 'Je vérifie les journaux :'] },
    { id: 'embedded-source', says: 'a quotation of a source', place: 'around', pattern: "(?<!\\p{L})(?:citation|la page (?:contenait|contient)|le site (?:essayait|voulait|contenait|contient)|texte caché|(?:caché|cachée|trouvé|trouvée|intégré|intégrée) dans la page|le message de l'utilisateur (?:contenait|disait|demandait)|(?:essayait|voulait) de me faire)(?!\\p{L})", match: ["La page contenait l'instruction suivante :", 'Voici le texte caché trouvé dans la page :', 'Citation du courriel :', "Le message de l'utilisateur contenait :", 'Voilà ce que le site essayait de me faire lancer :'], not_match: ['Je corrige la page de connexion :', "Je réponds au message de l'utilisateur :"] },
    { id: 'excerpt', says: 'a refusal, a source or a demonstration', place: 'around', pattern: "(?<!\\p{L})(?:surtout pas|extrait (?:de|du|des)|démonstration|on m'a demandé de|traduit (?:de|du|depuis)|je préfère ne pas|je m'y refuse|mais non|l'attaquant)(?!\\p{L})", match: ['Surtout pas :', 'Extrait de la page :', "Ceci n'était qu'une démonstration.", "Voici ce qu'on m'a demandé de lancer, mais non :", "Traduit de l'anglais :", "Je préfère ne pas l'exécuter :", "Je m'y refuse :"], not_match: ["J'extrais l'archive :", 'Je traduis le fichier :', 'Je lance les tests maintenant :'] },
    { id: 'disowned', says: 'a warning or a source', place: 'around', pattern: "(?<!\\p{L})(?:piège|pas de moi|c'était dans (?:le|la|l')|capture d'écran|(?:cachait|cache|dissimulait)(?= (?:cette|ce|ces|une|un))|(?:commentaire|pdf|ticket|document)(?: [\\p{L}']+){0,3} (?:dit|disait|indique|contient|contenait))(?!\\p{L})", match: ['Attention, piège :', "Ce n'est pas de moi, c'était dans le ticket :", "Ce n'est que le texte de la capture d'écran.", 'Le PDF cachait cette commande :', 'Le commentaire dans le code dit :'], not_match: ['Je redémarre le serveur :', 'Je vide le cache :', 'Je lis le ticket :'] },
  ],
};

export const DE: FramingLanguage = {
  language: 'de',
  entries: [
    { id: 'negated-action', says: 'a negated instruction', place: 'around', pattern: '\\b(?:nicht|niemals|keinesfalls) (?:aus(?:führen|geführt)|starten|verwenden|aufrufen|befolgen)\\b|\\bführen? (?:sie )?(?:\\p{L}+ ){0,3}(?:nicht|niemals|keinesfalls) aus\\b', match: ['Bitte nicht ausführen:', 'Führe das nicht aus.', 'Führe das Folgende NICHT aus:', 'Führen Sie diesen Befehl nicht aus.'], not_match: ['Ich prüfe das Wetter:', 'Ich führe den Befehl aus:'] },
    { id: 'refusal', says: 'a refusal', place: 'around', pattern: "\\b(?:ich weigere mich|ich lehne ab|(?<!(?:suche|suchen|prüfe|prüfen|scanne|scannen|finde|finden|entferne|entfernen|erkenne|erkennen|lösche|löschen|checke|checken)(?: [\\p{L}']+){0,3} )(?:bösartig|schädlich|verdächtig)|eingeschleust|injiziert)", match: ['Ich weigere mich, das auszuführen', 'ein eingeschleuster Befehl', "Das ist bösartig:", "ein verdächtiger Befehl"], not_match: ['Ich lese die Datei:', "Ich suche nach verdächtigen Prozessen:", "Ich prüfe die schädlichen Dateien:"] },
    { id: 'attribution', says: 'an attribution to someone else', place: 'around', pattern: '\\b(?:der (?:benutzer|nutzer) (?:schrieb|hat geschrieben|sagte)|die seite (?:sagt|verlangt|schreibt)|wörtlich)\\b', match: ['Der Benutzer schrieb:', 'die Seite verlangt'], not_match: ['Der Benutzer möchte das Wetter wissen.'] },
    { id: 'example', says: 'an example', place: 'around', pattern: '\\b(?:zum beispiel|z\\. ?b\\.|die syntax ist)\\b|(?<!\\p{L})beispiel\\p{L}*', match: ['Zum Beispiel:', 'Beispiel:', 'Beispielaufruf:'], not_match: ['Ich suche die Datei:'] },
    { id: 'set-aside', says: 'a warning, a source or an example', place: 'around', pattern: "(?:(?:^|\\n)muster ?:|\\bnur ein muster\\b|\\bachtung,? falle\\b|\\bstammt (?:von|aus) der (?:webseite|seite|website)\\b|\\bbloß nicht (?:starten|ausführen)\\b)", match: ["Muster:", "Achtung, Falle:", "Das stammt von der Webseite:"], not_match: ["Ich starte die Tests:", "Ich prüfe das Suchmuster:"] },
    { id: 'declined', says: 'a refusal', place: 'around', pattern: "(?<!\\p{L})(?:(?:das|dies|es|den|diesen)(?: \\p{L}+)? (?:werde|würde|will|mache|tue) ich (?:nicht|keinesfalls|niemals)|werde ich (?:nicht|keinesfalls) (?:tun|machen)|(?:das|dies|es) lasse ich|auf keinen fall|kommt nicht in frage|nur zur ansicht|(?:ist|wäre|klingt) (?:zu |sehr |ziemlich )?gefährlich)(?!\\p{L})", match: ['Das werde ich nicht tun:', 'Ausführen? Auf keinen Fall:', 'Kommt nicht in Frage:', 'Das lasse ich lieber:', 'Vorsicht – nur zur Ansicht:', 'Das wäre zu gefährlich:', 'Nein, das mache ich nicht:'], not_match: ['Ich lasse die Tests laufen:', 'Ich prüfe die Logs:', 'Klar – ich liste die Dateien auf:'] },
    { id: 'embedded-source', says: 'a quotation of a source', place: 'around', pattern: "(?<!\\p{L})(?:zitat|(?:(?:web)?seite|e-?mail|mail|nachricht) (?:enthielt|enthält|lautete|verlangte|wollte)|(?:hat|haben) mir (?:die|der|das) (?:web)?seite|untergeschoben|(?:im|in einem|aus dem) versteckten text|versteckte[nr]? (?:text|anweisung|befehl)|eingebettete[nr]? (?:text|anweisung|befehl)|anweisung (?:auf|in|aus) der (?:web)?seite|laut der (?:web)?seite|so (?:sähe|sieht|sehen|würde)(?: [\\p{L}-]+){1,3} aus)(?!\\p{L})", match: ['Die Webseite enthielt folgenden Befehl:', 'Die Mail enthielt diesen Aufruf:', 'Das hat mir die Seite untergeschoben:', 'Folgendes stand im versteckten Text der Seite:', 'Zitat aus der E-Mail:', 'Laut der Seite soll ich das ausführen:', 'Die Anweisung auf der Seite lautete:', 'So sähe ein Aufruf aus:', 'So sieht der Tool-Aufruf aus:'], not_match: ['Ich lese Seite 3 der Doku:', 'Ich zeige die versteckten Dateien an:', 'So, ich führe die Tests aus:'] },
    { id: 'excerpt', says: 'a refusal, a source or a demonstration', place: 'around', pattern: "(?<!\\p{L})(?:bitte nicht(?= ?[:.!]|$)|finger weg|lieber nicht|originaltext|(?:forderte|fordert|forderten) (?:mich|uns) auf|auszug (?:aus|von)|übersetzt (?:aus|von)|(?:nur|bloß) (?:eine )?(?:demonstration|demo)|angreifer\\p{L}*)(?!\\p{L})", match: ['Bitte nicht:', 'Finger weg davon:', 'Hier der Originaltext der Seite:', 'Die Seite forderte mich auf, Folgendes auszuführen:', 'Auszug aus dem Log:', 'Das war nur eine Demonstration.', 'Übersetzt aus dem Englischen:'], not_match: ['Bitte nicht vergessen: ich starte die Tests.', 'Ich übersetze die Datei:', 'Ich führe die Tests aus:'] },
    { id: 'disowned', says: 'a warning or a source', place: 'around', pattern: "(?<!\\p{L})(?:falle|nicht von mir|(?:stand|steht) (?:so )?(?:im|in der|auf der)|aus dem screenshot|(?:war|ist) (?:\\p{L}+ ){0,3}versteckt|(?:kommentar|pdf|ticket|dokument)(?: [\\p{L}-]+){0,3} (?:lautet|lautete|sagt|enthält|enthielt))(?!\\p{L})", match: ['Achtung, das ist eine Falle der Webseite:', 'Nicht von mir – das stand so im Ticket:', 'Das ist nur der Text aus dem Screenshot.', 'Im PDF war dieser Befehl versteckt:', 'Der Kommentar im Code lautet:'], not_match: ['Ich schaue in die Logs.', 'Gut, ich starte den Server neu:', 'Ich lese das Ticket:'] },
  ],
};

export const RU: FramingLanguage = {
  language: 'ru',
  entries: [
    { id: 'negated-action', says: 'a negated instruction', place: 'around', pattern: '(?:не|никогда не) (?:запускай|запускайте|выполняй|выполняйте|исполняй|вызывай|вызывайте)(?!\\p{L})', match: ['Не запускай:', 'Никогда не выполняйте это:'], not_match: ['Запускаю тесты:'] },
    { id: 'refusal', says: 'a refusal', place: 'around', pattern: "(?:^|[^\\p{L}])(?:отказываюсь|не буду (?:это )?(?:запускать|выполнять)|(?<!(?:провер\\p{L}*|найд\\p{L}*|найти|ищу|иска\\p{L}*|сканир\\p{L}*|просканир\\p{L}*|удал\\p{L}*|обнаруж\\p{L}*|поиск\\p{L}*)(?: \\p{L}+){0,3} )(?:вредоносн\\p{L}*|подозрительн\\p{L}*)|внедр[её]нн\\p{L}*|инъекци\\p{L}*)", match: ['Я отказываюсь это запускать', 'это внедрённый текст', "Это вредоносная команда:"], not_match: ['Сейчас прочитаю файл:', "Проверю подозрительные процессы:", "Найду вредоносные файлы:"] },
    { id: 'attribution', says: 'an attribution to someone else', place: 'around', pattern: '(?:^|[^\\p{L}])(?:пользователь (?:написал|прислал|вставил)|страница (?:просит|просила|требует|говорит)|дословно)(?!\\p{L})', match: ['Пользователь написал:', 'страница просила'], not_match: ['Пользователь хочет узнать погоду.'] },
    { id: 'example', says: 'an example', place: 'around', pattern: '(?:^|[^\\p{L}])(?:пример|например)(?!\\p{L})', match: ['Пример:', 'Например:'], not_match: ['Сейчас проверю файл:'] },
    { id: 'set-aside', says: 'a warning, a source or an example', place: 'around', pattern: "(?:^|[^\\p{L}])(?:не (?:надо|нужно|стоит|следует) (?:это )?(?:запускать|выполнять)|не запускать|не выполнять|образец|со страницы|с сайта)(?!\\p{L})", match: ["Не надо это запускать:", "Не запускать!", "Образец:", "Это со страницы, игнорируй:"], not_match: ["Сейчас запущу тесты:"] },
    { id: 'declined', says: 'a refusal, a source or an example', place: 'around', pattern: "(?:^|[^\\p{L}])(?:не стану|(?:делать|запускать|выполнять) не (?:буду|стану)|не буду (?:это |этого )?(?:делать|запускать|выполнять)|(?:это|слишком) опасно|не (?:выполнял|запускал|выполнялось|запускалось)|не (?:запускаю|выполняю)|цитата|из письма|так выглядит|страница (?:велела|хочет|приказывает)|(?:сказал|написал|велел)\\p{L}* (?:пользователь|страница|сайт)|спрятан\\p{L}*|скрыт\\p{L}* (?:на|в) (?:странице|тексте|письме))(?!\\p{L})", match: ['Вот что было спрятано на странице:', 'Я это запускать не стану:', 'Цитата из письма:', 'Я это не выполнял.', 'Это опасно, пропускаю:', 'Так выглядит вызов:', 'Страница велела выполнить:', 'сказал пользователь.', 'Этого я делать не буду:', 'Эту команду я не запускаю.'], not_match: ['Проверю логи:', 'Запускаю тесты:', 'Хорошо, покажу файлы:', 'Пропускаю тесты и собираю:'] },
    { id: 'excerpt', says: 'a refusal, a source or a demonstration', place: 'around', pattern: "(?:^|[^\\p{L}])(?:(?:лучше )?не надо(?= ?[:.!]|$)|отрывок|демонстрац\\p{L}*|перевод с|злоумышленник\\p{L}*|воздерж\\p{L}*)(?!\\p{L})", match: ['Лучше не надо:', 'Отрывок со страницы:', 'Это была лишь демонстрация.', 'Перевод с английского:', 'Это написал злоумышленник:', 'Воздержусь от запуска:'], not_match: ['Не надо ждать, запускаю тесты.', 'Переведу файл:', 'Запускаю тесты:'] },
    { id: 'disowned', says: 'a warning or a source', place: 'around', pattern: "(?:^|[^\\p{L}])(?:ловушк\\p{L}*|не моё|не мое|не мой|было в (?:тикете|письме|документе|pdf)|со скриншота)(?!\\p{L})", match: ['Осторожно, это ловушка:', 'Это не моё, это было в тикете:', 'Это просто текст со скриншота.'], not_match: ['Перезапускаю сервер:', 'Ставлю зависимости:', 'Сделаю скриншот:'] },
  ],
};

export const JA: FramingLanguage = {
  language: 'ja',
  entries: [
    { id: 'negated-action', says: 'a negated instruction', place: 'around', pattern: '(?:実行|起動|使用|呼び出)(?:し|さ)ないで|(?:実行|起動|使用|呼び出し)(?:しません|しない(?:でおきます|ことにします)?|できません|いたしません)', match: ['実行しないでください：', 'このコマンドは実行しません：', '実行できません。'], not_match: ['テストを実行します：', 'ファイルを確認します：'] },
    { id: 'refusal', says: 'a refusal', place: 'around', pattern: "(?:拒否し|お断りし|インジェクション|注入された|(?:悪意のある|不審な)(?![^。！？\\n]{0,16}(?:検索|スキャン|チェック|確認|検出|削除|探し|調べ|検査|除去)))", match: ['実行を拒否します', 'これは注入されたテキストです', "これは悪意のあるコマンドです。"], not_match: ['ファイルを確認します：', "悪意のあるファイルを検索します：", "不審なプロセスを確認します："] },
    { id: 'attribution', says: 'an attribution to someone else', place: 'around', pattern: '(?:ユーザーが(?:書い|貼り付け|送っ)|ページ(?:が|に)(?:要求|書かれ|指示)|原文)', match: ['ユーザーが書いたもの：', 'ページが要求したもの：'], not_match: ['ユーザーの天気を調べます：'] },
    { id: 'example', says: 'an example', place: 'around', pattern: '(?:例えば|たとえば|例[：:]|例です|の例|例として|サンプルです)', match: ['例えば：', '例：', '以下は例です：'], not_match: ['ファイルを読みます：'] },
    { id: 'set-aside', says: 'a warning, a source or an example', place: 'around', pattern: "(?:実行禁止|実行しないこと|実行しないで|サンプル[：:]|参考までに|ページから(?:の|来た))", match: ["実行禁止：", "実行しないこと：", "サンプル：", "参考までに："], not_match: ["テストを実行します："] },
    { id: 'declined', says: 'a refusal, a source or an example', place: 'around', pattern: "(?:実行して(?:い)?ません|実行していない|見送(?:り|ります|る)|やめておきます|埋め込まれ|(?:^|\\n|の)引用[：:]|からの引用|(?:書式|形式|書き方)は(?:次|以下)|ページ(?:の|からの)指示)", match: ['これは実行していません。', 'ページに埋め込まれていた命令は次のとおりです：', 'メールからの引用：', '危険なので実行は見送ります：', '呼び出しの書式は次のようになります：', 'ページの指示：', 'これはやめておきます：'], not_match: ['ログを確認します：', 'テストを実行します：', 'ファイルを一覧表示します。'] },
    { id: 'excerpt', says: 'a refusal, a source or a demonstration', place: 'around', pattern: "(?:ダメです|だめです|抜粋|デモにすぎ|デモです|からの翻訳|翻訳です|攻撃者|控えます)", match: ['絶対にダメです：', 'ページからの抜粋：', 'これはデモにすぎません。', '英語からの翻訳：', '攻撃者が書いたもの：', '実行は控えます：'], not_match: ['デモサーバーを起動します：', 'ファイルを翻訳します：', 'テストを実行します：'] },
    { id: 'disowned', says: 'a warning or a source', place: 'around', pattern: "(?:罠|私が書いたものではな|チケットにあった|スクリーンショットの文字|隠されてい)", match: ['注意：これは罠です：', '私が書いたものではなく、チケットにあったものです：', 'これはスクリーンショットの文字です。'], not_match: ['サーバーを再起動します。', 'スクリーンショットを撮ります：', '依存関係をインストールします：'] },
  ],
};

export const KO: FramingLanguage = {
  language: 'ko',
  entries: [
    { id: 'negated-action', says: 'a negated instruction', place: 'around', pattern: '(?:실행|사용|호출)하지 (?:마|마세요|말|않겠|않을|않습니다|않아|않는다)', match: ['실행하지 마세요:', '이 명령은 실행하지 않겠습니다:'], not_match: ['파일을 확인하겠습니다:'] },
    { id: 'refusal', says: 'a refusal', place: 'around', pattern: "(?:거부합니다|거절합니다|주입된|(?:악의적|의심스러운)(?![^.!?\\n]{0,16}(?:확인|검색|스캔|검사|탐지|삭제|찾|조사|제거)))", match: ['실행을 거부합니다', '주입된 텍스트입니다', "이것은 악의적인 명령입니다."], not_match: ['파일을 확인하겠습니다:', "의심스러운 프로세스를 확인하겠습니다:", "악의적인 파일을 검색하겠습니다:"] },
    { id: 'attribution', says: 'an attribution to someone else', place: 'around', pattern: '(?:사용자가 (?:쓴|작성한|붙여넣은)|페이지(?:가|에서) (?:요청한|요구한|말한))', match: ['사용자가 쓴 내용:', '페이지가 요청한 것:'], not_match: ['사용자의 날씨를 확인하겠습니다.'] },
    { id: 'example', says: 'an example', place: 'around', pattern: '(?:^|[^\\p{L}])(?:예[：:]|예시|예를 들어)', match: ['예:', '예를 들어:'], not_match: ['파일을 확인하겠습니다:'] },
    { id: 'set-aside', says: 'a warning, a source or an example', place: 'around', pattern: "(?:실행 금지|실행하지 마|샘플[：:]|참고용|페이지에서 온)", match: ["실행 금지:", "샘플:", "참고용:"], not_match: ["테스트를 실행하겠습니다:"] },
  ],
};

export const PT: FramingLanguage = {
  language: 'pt',
  entries: [
    { id: 'negated-action', says: 'a negated instruction', place: 'around', pattern: '\\b(?:não|nunca) (?:o |a |os )?(?:execute|executes|executem|executar|rode|rodes|rodar|use|uses|chame|chames|invoque|siga|sigas|faça|faças)(?!\\p{L})', match: ['Não execute o seguinte:', 'nunca rode isto'], not_match: ['Vou verificar o clima:', 'Vou executar os testes:'] },
    { id: 'refusal', says: 'a refusal', place: 'around', pattern: "\\b(?:me recuso|eu recuso|não posso ajudar|(?<!(?:busc\\p{L}*|procur\\p{L}*|escane\\p{L}*|revis\\p{L}*|detect\\p{L}*|elimin\\p{L}*|encontr\\p{L}*|encuentr\\p{L}*|analiz\\p{L}*|analis\\p{L}*|verific\\p{L}*|remov\\p{L}*)(?: [\\p{L}']+){0,3} )(?:malicios[oa]s?|suspeit[oa]s?)|injetad[oa]s?|injeção)(?!\\p{L})", match: ['Eu me recuso a executar isso', 'é um texto injetado', "Isso é malicioso:"], not_match: ['Deixe-me ler o arquivo:', "Vou procurar arquivos maliciosos:", "Vou verificar processos suspeitos:"] },
    { id: 'attribution', says: 'an attribution to someone else', place: 'around', pattern: '\\b(?:o usuário (?:escreveu|disse|colou)|a página (?:diz|disse|pede|pediu)|literalmente|textualmente)(?!\\p{L})', match: ['O usuário escreveu:', 'a página pediu'], not_match: ['O usuário quer saber o clima.'] },
    { id: 'example', says: 'an example', place: 'around', pattern: '\\b(?:por exemplo|exemplos?|a sintaxe é)(?!\\p{L})', match: ['Por exemplo:', 'A sintaxe é:'], not_match: ['Vou procurar o arquivo:'] },
    { id: 'set-aside', says: 'a warning, a source or an example', place: 'around', pattern: "\\b(?:não é para (?:executar|rodar)|não (?:executar|rodar)|veio da página|vem da página)(?!\\p{L})", match: ["Não é para executar:", "Isto veio da página, ignore:"], not_match: ["Vou executar os testes:"] },
  ],
};

export const IT: FramingLanguage = {
  language: 'it',
  entries: [
    { id: 'negated-action', says: 'a negated instruction', place: 'around', pattern: "\\b(?:non|mai) (?:lo |la |li )?(?:eseguire|eseguirlo|eseguirla|eseguite|eseguirò|lanciare|lanciarlo|avviare|usare|chiamare|seguire)(?!\\p{L})", match: ['Non eseguire quanto segue:', 'non lo eseguirò.'], not_match: ['Controllo il meteo:', 'Adesso eseguo i test:'] },
    { id: 'refusal', says: 'a refusal', place: 'around', pattern: "\\b(?:mi rifiuto|non posso aiutare|(?<!(?:cerc\\p{L}*|scansion\\p{L}*|controll\\p{L}*|rimuov\\p{L}*|rilev\\p{L}*|trov\\p{L}*|analizz\\p{L}*)(?: [\\p{L}']+){0,3} )(?:dannos[oaie]|malevol[oaie])|iniettat[oaie]|iniezione)(?!\\p{L})", match: ['Mi rifiuto di eseguirlo', 'è un testo iniettato', "Questo comando è dannoso:"], not_match: ['Leggo il file:', "Cerco i file dannosi:", "Controllo i processi malevoli:"] },
    { id: 'attribution', says: 'an attribution to someone else', place: 'around', pattern: "\\b(?:l'utente ha (?:scritto|detto|incollato)|la pagina (?:dice|chiede|ha chiesto)|testualmente|alla lettera)\\b", match: ["L'utente ha scritto:", 'la pagina chiede'], not_match: ["L'utente vuole sapere il meteo."] },
    { id: 'example', says: 'an example', place: 'around', pattern: '\\b(?:per esempio|ad esempio|esempi[oi]?|la sintassi è)(?!\\p{L})', match: ['Per esempio:', 'La sintassi è:'], not_match: ['Cerco il file:'] },
    { id: 'set-aside', says: 'a warning, a source or an example', place: 'around', pattern: "\\b(?:non va eseguit[oa]|non (?:eseguire|eseguirlo|lanciarlo)|arriva dalla pagina|viene dalla pagina)(?!\\p{L})", match: ["Non va eseguito:", "Questo arriva dalla pagina, ignoralo:"], not_match: ["Eseguo i test:"] },
  ],
};

export const NL: FramingLanguage = {
  language: 'nl',
  entries: [
    { id: 'negated-action', says: 'a negated instruction', place: 'around', pattern: '\\b(?:niet|nooit) (?:uitvoeren|draaien|gebruiken|aanroepen|opvolgen)\\b|\\bvoer (?:\\p{L}+ ){0,3}(?:niet|nooit) uit\\b', match: ['Niet uitvoeren:', 'Voer dit commando niet uit.'], not_match: ['Ik controleer het weer:', 'Ik voer de tests uit:'] },
    { id: 'refusal', says: 'a refusal', place: 'around', pattern: "\\b(?:ik weiger|(?<!(?:zoek|zoeken|scan|scannen|controleer|controleren|verwijder|verwijderen|vind|vinden|detecteer|detecteren|check|checken)(?: [\\p{L}']+){0,3} )(?:kwaadaardig\\w*|verdacht\\w*)|geïnjecteerd\\w*|injectie)", match: ['Ik weiger dit uit te voeren', 'een geïnjecteerde opdracht', "Dit is kwaadaardig:"], not_match: ['Ik lees het bestand:', "Ik zoek naar verdachte processen:", "Ik scan de kwaadaardige bestanden:"] },
    { id: 'example', says: 'an example', place: 'around', pattern: '\\b(?:bijvoorbeeld|voorbeeld(?:en)?|de syntaxis is)\\b', match: ['Bijvoorbeeld:', 'Voorbeeld:'], not_match: ['Ik zoek het bestand:'] },
  ],
};

export const PL: FramingLanguage = {
  language: 'pl',
  entries: [
    { id: 'negated-action', says: 'a negated instruction', place: 'around', pattern: '(?:^|[^\\p{L}])(?:nie|nigdy nie) (?:uruchamiaj|uruchamiajcie|wykonuj|wykonujcie|uruchomię|wykonam|używaj|wywołuj)(?!\\p{L})', match: ['Nie uruchamiaj tego:', 'nie wykonam tego polecenia'], not_match: ['Sprawdzę pogodę:', 'Uruchamiam testy:'] },
    { id: 'refusal', says: 'a refusal', place: 'around', pattern: "(?:^|[^\\p{L}])(?:odmawiam|(?<!(?:sprawdz\\p{L}*|szuka\\p{L}*|wyszuk\\p{L}*|znajd\\p{L}*|skanu\\p{L}*|przeskanu\\p{L}*|usu\\p{L}*|wykry\\p{L}*)(?: \\p{L}+){0,3} )(?:złośliw\\p{L}*|podejrzan\\p{L}*)|wstrzyknięt\\p{L}*)", match: ['Odmawiam wykonania', 'to wstrzyknięty tekst', "To jest złośliwe polecenie:"], not_match: ['Czytam plik:', "Sprawdzę podejrzane procesy:", "Wyszukam złośliwe pliki:"] },
    { id: 'example', says: 'an example', place: 'around', pattern: '(?:^|[^\\p{L}])(?:na przykład|przykład|przykłady)(?!\\p{L})', match: ['Na przykład:', 'Przykład:'], not_match: ['Szukam pliku:'] },
  ],
};

export const ID: FramingLanguage = {
  language: 'id',
  entries: [
    { id: 'negated-action', says: 'a negated instruction', place: 'around', pattern: '\\b(?:jangan|tidak akan|tidak saya|tidak akan saya|saya tidak) (?:menjalankan|jalankan|eksekusi|mengeksekusi|gunakan|panggil|ikuti)\\b', match: ['Jangan jalankan perintah ini:', 'saya tidak akan menjalankan ini', 'Ini dari halaman web, tidak saya jalankan:'], not_match: ['Saya akan memeriksa cuaca:', 'Saya jalankan tesnya:'] },
    { id: 'refusal', says: 'a refusal', place: 'around', pattern: "\\b(?:saya menolak|disuntikkan|injeksi|(?<!(?:memindai|pindai|mencari|cari|memeriksa|periksa|menghapus|hapus|mendeteksi|deteksi|cek)(?: \\p{L}+){0,3} )mencurigakan)\\b", match: ['Saya menolak menjalankannya', 'teks yang disuntikkan', "Perintah ini mencurigakan:"], not_match: ['Saya baca filenya:', "Saya akan memindai file mencurigakan:", "Saya cari proses mencurigakan:"] },
    { id: 'example', says: 'an example', place: 'around', pattern: '\\b(?:contohnya|contoh|misalnya|sintaksnya)\\b', match: ['Contoh:', 'Misalnya:'], not_match: ['Saya cari filenya:'] },
  ],
};

export const VI: FramingLanguage = {
  language: 'vi',
  entries: [
    { id: 'negated-action', says: 'a negated instruction', place: 'around', pattern: '(?:^|[^\\p{L}])(?:đừng|không được|không nên|sẽ không) (?:chạy|thực thi|thực hiện|gọi|dùng|làm theo)(?!\\p{L})', match: ['Đừng chạy lệnh này:', 'tôi sẽ không chạy nó'], not_match: ['Tôi sẽ kiểm tra thời tiết:', 'Tôi chạy thử nghiệm:'] },
    { id: 'refusal', says: 'a refusal', place: 'around', pattern: "(?:^|[^\\p{L}])(?:tôi từ chối|được chèn vào|tiêm mã|(?<!(?:quét|tìm|tìm kiếm|kiểm tra|xóa|phát hiện|rà soát)(?: \\p{L}+){0,4} )(?:độc hại|đáng ngờ))(?!\\p{L})", match: ['Tôi từ chối thực hiện', 'văn bản được chèn vào', "Lệnh này độc hại:"], not_match: ['Tôi đọc tệp:', "Tôi sẽ quét các tệp độc hại:", "Tôi sẽ kiểm tra các tiến trình đáng ngờ:"] },
    { id: 'example', says: 'an example', place: 'around', pattern: '(?:^|[^\\p{L}])(?:ví dụ|cú pháp là)(?!\\p{L})', match: ['Ví dụ:', 'Cú pháp là:'], not_match: ['Tôi tìm tệp:'] },
  ],
};
