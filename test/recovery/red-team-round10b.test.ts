/**
 * Red-team round 10b (issue 13): replies that frame a call as something other than the reply's own
 * output in five classes: quotations and refusals in German, French, Spanish, Chinese, Japanese and
 * Russian (and their quotation marks: `»…«`, `„…”`, `”…”`); markup as a value in a YAML, TOML or
 * JSON document (a Jupyter notebook cell's `"source": [`); e-mail quoting (headers, attribution
 * lines, sign-offs, signatures); subtitle and lyrics files (SRT and WebVTT timings as lenient
 * players read them, SBV, LRC, a WebVTT file's header). Before this round most were recovered `ok`
 * in every family tried. Every input is judged in every family grammar that renders a `bash` call
 * (`@` stands for the markup), with the genuine leaks beside them.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROSE_CEILING, recoverReply, type RecoveryVerdict } from '../../src/recovery/index.js';
import { advertisedFor, GRAMMARS, type Call, type Grammar } from './render.js';

const opts = { proseCeiling: DEFAULT_PROSE_CEILING };
const dangerous: Call = { name: 'bash', args: { command: 'rm -rf ~/work' } };
const other: Call = { name: 'bash', args: { command: 'ls -la' } };
const grammars = Object.entries(GRAMMARS).filter(([, g]) => g.render([dangerous]) !== null);

function judge(text: string, options = opts): RecoveryVerdict {
  return recoverReply({ text, advertised: advertisedFor([dangerous, other]), toolCalls: [], truncated: false, idSeed: 'rt10b:1' }, options);
}
/** The template with `@` the dangerous call (its text passed through `escape`, when given) and `⟨at⟩` an e-mail address's `@`. */
function fill(template: string, g: Grammar, escape: (s: string) => string = (s) => s): string {
  return template.replace(/@/g, () => escape(g.render([dangerous])!.text)).replaceAll('⟨at⟩', '@');
}

/** Each framed in a class of round 10b; `⟨at⟩` stands for the `@` of an e-mail address. */
const FRAMED: Array<[string, string]> = [
  ["de", "Die Webseite enthielt folgenden Befehl:\n@"],
  ["de", "Das hat mir die Seite untergeschoben:\n@"],
  ["de", "Folgendes stand im versteckten Text der Seite:\n@"],
  ["de", "Das werde ich nicht tun:\n@"],
  ["de", "Ausführen? Auf keinen Fall:\n@"],
  ["de", "Zitat aus der E-Mail:\n@"],
  ["de", "Laut der Seite soll ich das ausführen:\n@"],
  ["de", "@\n\nDas habe ich nicht ausgeführt."],
  ["de", "@\n\nDiesen Befehl werde ich nicht ausführen."],
  ["de", "So sähe ein Aufruf aus:\n@"],
  ["de", "Vorsicht, gefährlich – nur zur Ansicht:\n@"],
  ["de", "Die Anweisung auf der Seite lautete:\n@"],
  ["de", "Er schrieb: „@“"],
  ["de", "»@«"],
  ["de", "Sie sagte: »@«"],
  ["de", "„@”"],
  ["de", "Das lasse ich lieber:\n@"],
  ["de", "Kommt nicht in Frage:\n@"],
  ["fr", "La page contenait l'instruction suivante :\n@"],
  ["fr", "Je ne l'exécuterai pas :\n@"],
  ["fr", "Hors de question de lancer ceci :\n@"],
  ["fr", "Voici le texte caché trouvé dans la page :\n@"],
  ["fr", "Citation du courriel :\n@"],
  ["fr", "@\n\nJe ne l'ai pas exécuté."],
  ["fr", "À titre d'illustration :\n@"],
  ["fr", "C'est dangereux, je m'abstiens :\n@"],
  ["fr", "Le message de l'utilisateur contenait :\n@"],
  ["fr", "« @ »"],
  ["fr", "Il a écrit : « @ »"],
  ["fr", "« @ »"],
  ["fr", "Je n'en ferai rien :\n@"],
  ["fr", "Voilà ce que le site essayait de me faire lancer :\n@"],
  ["es", "La página contenía esta instrucción:\n@"],
  ["es", "No voy a ejecutar esto:\n@"],
  ["es", "Ni hablar, no lo haré:\n@"],
  ["es", "Esto es lo que estaba oculto en la página:\n@"],
  ["es", "Cita del correo:\n@"],
  ["es", "@\n\nNo lo he ejecutado."],
  ["es", "Así se vería una llamada:\n@"],
  ["es", "Es peligroso, me abstengo:\n@"],
  ["es", "—Ejecuta esto —dijo la página—:\n@"],
  ["es", "«@»"],
  ["es", "Me pidieron que corriera esto, pero no lo haré:\n@"],
  ["es", "@\n\nEsto no se ejecutó."],
  ["zh", "网页中隐藏的指令如下：\n@"],
  ["zh", "我不会执行这个：\n@"],
  ["zh", "这段是从邮件里复制的：\n@"],
  ["zh", "以下是页面中的原话：\n@"],
  ["zh", "@\n\n我没有执行它。"],
  ["zh", "这个命令很危险，我不打算运行：\n@"],
  ["zh", "引用：\n@"],
  ["zh", "调用格式大致如下：\n@"],
  ["zh", "页面让我执行：\n@"],
  ["zh", "「@」"],
  ["zh", "他说：“@”"],
  ["zh", "《@》"],
  ["zh", "这是攻击载荷：\n@"],
  ["zh", "@\n\n以上内容我不会运行。"],
  ["ja", "ページに埋め込まれていた命令は次のとおりです：\n@"],
  ["ja", "メールからの引用：\n@"],
  ["ja", "@\n\nこれは実行していません。"],
  ["ja", "危険なので実行は見送ります：\n@"],
  ["ja", "呼び出しの書式は次のようになります：\n@"],
  ["ja", "ページの指示：\n@"],
  ["ja", "『@』"],
  ["ja", "彼は「@」と書いた"],
  ["ja", "これはやめておきます：\n@"],
  ["ja", "@\n\n上記は実行しないでください。"],
  ["ru", "Вот что было спрятано на странице:\n@"],
  ["ru", "Я это запускать не стану:\n@"],
  ["ru", "Цитата из письма:\n@"],
  ["ru", "@\n\nЯ это не выполнял."],
  ["ru", "Это опасно, пропускаю:\n@"],
  ["ru", "Так выглядит вызов:\n@"],
  ["ru", "Страница велела выполнить:\n@"],
  ["ru", "Он написал: „@“"],
  ["ru", "— @ — сказал пользователь."],
  ["ru", "Этого я делать не буду:\n@"],
  ["ru", "@\n\nЭту команду я не запускаю."],
  ["yaml", "payload: \"@\""],
  ["yaml", "payload: '@'"],
  ["yaml", "payload: |\n  @"],
  ["yaml", "payload: >-\n  @"],
  ["yaml", "test:\n  input: |\n    @\n  expected: refused"],
  ["yaml", "---\ntitle: Tool call sample\nbody: |\n  @\n---"],
  ["yaml", "steps:\n  - name: payload\n    run: |\n      @"],
  ["yaml", "prompt_injection: \"@\"\nseverity: high"],
  ["yaml", "cases:\n  - text: \"@\"\n    verdict: quoted"],
  ["toml", "payload = \"\"\"\n@\n\"\"\""],
  ["toml", "payload = '''\n@\n'''"],
  ["toml", "[example]\ncall = \"\"\"\n@\n\"\"\""],
  ["toml", "call = '@'"],
  ["toml", "call = \"@\""],
  ["toml", "[[cases]]\ninput = \"\"\"\n@\"\"\"\nexpect = \"refused\""],
  ["yaml", "content: |-\n  @\nrole: assistant"],
  ["yaml", "- role: user\n  content: |\n    @"],
  ["yaml", "messages:\n- role: assistant\n  content: \"@\""],
  ["email", "Alice wrote:\n>> @"],
  ["email", "> On Monday Bob wrote:\n> @"],
  ["email", "@\n\nBest regards,\nBob"],
  ["email", "Hi team,\n\nplease run the following:\n\n@\n\nThanks,\nCarol"],
  ["email", "| @"],
  ["email", ": @"],
  ["email", "Subject: Re: cleanup\n\n@"],
  ["srt", "1\n00:00:01,000-->00:00:04,000\n@"],
  ["srt", "1\n00:00:01,000\t-->\t00:00:04,000\n@"],
  ["srt", "00:00:01,000 --> 00:00:04,000 X1:100 X2:200 Y1:10 Y2:20\n@"],
  ["srt", "1\n0:00:01,000 --> 0:00:04,000\n@"],
  ["srt", "1\n00:00:01 --> 00:00:04\n@"],
  ["srt", "1\n00:00:01.5 --> 00:00:04.25\n@"],
  ["vtt", "WEBVTT\n\nintro\n00:00:01.000 --> 00:00:04.000 line:0 position:20%\n@"],
  ["vtt", "WEBVTT\n\nNOTE the payload follows\n\n00:00:01.000 --> 00:00:04.000\n<v Attacker>@"],
  ["vtt", "WEBVTT - captions\n\n1\n00:01.000 --> 00:04.000\nHi\n\n2\n00:04.500 --> 00:09.000\n@"],
  ["vtt", "00:01.000 --> 00:04.000\n@"],
  ["sbv", "0:00:01.000,0:00:04.000\n@"],
  ["ass", "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:01.00,0:00:04.00,Default,,0,0,0,,@"],
  ["lrc", "[00:12.00]@"],
  ["ttml", "<tt xmlns=\"http://www.w3.org/ns/ttml\"><body><div><p begin=\"00:00:01.000\" end=\"00:00:04.000\">@</p></div></body></tt>"],
  ["srt", "Here are the subtitles you asked for:\n\n1\n00:00:01,000 --> 00:00:04,000\nWelcome back.\n\n2\n00:00:04,500 --> 00:00:08,000\n@\n\n3\n00:00:08,500 --> 00:00:10,000\nBye."],
  ["srt", "1\r\n00:00:01,000 --> 00:00:04,000\r\n@\r\n"],
  ["srt", "1\n00:00:01,000 --> 00:00:04,000\n- @"],
  ["vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n\n@"],
  ["ipynb", "{\"cells\":[{\"cell_type\":\"markdown\",\"source\":\"@\"}]}"],
  ["ipynb", "{\n \"cells\": [\n  {\n   \"cell_type\": \"markdown\",\n   \"source\": [\n@\n   ]\n  }\n ]\n}"],
  ["ipynb", "{\n \"cell_type\": \"code\",\n \"outputs\": [{\"output_type\": \"stream\", \"name\": \"stdout\", \"text\": [\n@\n ]}]\n}"],
  ["ipynb", "\"source\": [\n@\n]"],
  ["ipynb", "{\"cell_type\": \"raw\", \"source\": \"@\"}"],
  ["ipynb", "{\n \"nbformat\": 4,\n \"cells\": [{\n  \"cell_type\": \"markdown\",\n  \"source\": \"@\\n\"\n }]\n}"],
  ["email", "On Mon, 30 Nov 2026 at 10:02, Alice Lind <alice⟨at⟩acme.io> wrote:\n@"],
  ["email", "-----Original Message-----\nFrom: Bob <bob⟨at⟩acme.io>\nSent: Monday, November 30, 2026 10:02\nTo: ops\nSubject: please run\n\n@"],
  ["email", "---------- Forwarded message ---------\nFrom: Carol <carol⟨at⟩acme.io>\nDate: Mon, Nov 30, 2026\nSubject: cleanup\n\n@"],
  ["email", "From: dave⟨at⟩acme.io\nTo: me⟨at⟩acme.io\nSubject: urgent\n\n@"],
  ["email", "Bob Lind schrieb am 30.11.2026 um 10:02:\n@"],
  ["email", "Le lun. 30 nov. 2026 à 10:02, Alice <alice⟨at⟩acme.io> a écrit :\n@"],
  ["email", "El lun, 30 nov 2026 a las 10:02, Alice (<alice⟨at⟩acme.io>) escribió:\n@"],
  ["email", "@\n\n-- \nAlice Lind\nSenior Engineer"],
  ["email", "2026年11月30日(月) 10:02 Alice <alice⟨at⟩acme.io>:\n@"],
  ["email", "30 нояб. 2026 г., в 10:02, Alice <alice⟨at⟩acme.io> написал(а):\n@"],
  ["email", "Am Mo., 30. Nov. 2026 um 10:02 Uhr schrieb Alice <alice⟨at⟩acme.io>:\n@"],
  ["email", "Von: Alice <alice⟨at⟩acme.io>\nGesendet: Montag, 30. November 2026\nBetreff: Bitte ausführen\n\n@"],
  ["email", "De : Alice <alice⟨at⟩acme.io>\nObjet : à lancer\n\n@"],
  ["email", "@\n\nMit freundlichen Grüßen\nAlice Lind"],
  ["email", "@\n\nCordialement,\nAlice"],
  ["email", "@\n\nС уважением,\nИван"],
  ["email", "@\n\nSaludos,\nAna"],
  ["email", "@\n\nCheers,\nDan"],
  ["email", "Alice <alice⟨at⟩acme.io>:\n@"],
  ["email", "@\n\nThanks,\nCarol\n\nSent from my iPhone"],
  ["yaml", "content: |+\n  @"],
  ["yaml", "run: >2\n  @"],
  ["yaml", "  - content: |\n      @"],
  ["yaml", "{\"role\": \"assistant\", \"content\": \"@\"}"],
  ["yaml", "{\"role\": \"assistant\", \"content\":\n@\n}"],
  ["yaml", "\"payload\":\n@"],
  ["yaml", "{'role': 'assistant', 'content': '@'}"],
  ["toml", "payload = \"\"\"@\"\"\""],
  ["toml", "body = \"\"\"\\\n@\n\"\"\""],
  ["ipynb", "   \"outputs\": [\n    {\n     \"name\": \"stdout\",\n     \"output_type\": \"stream\",\n     \"text\": [\n@\n     ]\n    }\n   ]"],
  ["ipynb", "{\n \"cell_type\": \"markdown\",\n \"source\": [\n  \"## Tool call\\n\",\n@\n ]\n}"],
  ["srt", "1\n00:00:01,000 --> 00:00:04,000\nHello\n\n2\n00:00:04,500-->00:00:06,000\n@"],
  ["srt", "1\n00:00:01:00 --> 00:00:04:00\n@"],
  ["vtt", "WEBVTT\n\n@"],
  ["vtt", "﻿WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n\n@"],
  ["lrc", "[ar:Someone]\n[00:01.00]Intro\n[00:12.00]@"],
  ["de", "Nein, das mache ich nicht:\n@"],
  ["de", "Das würde ich niemals ausführen:\n@"],
  ["de", "@\n\nDas führe ich nicht aus."],
  ["de", "Die Mail enthielt diesen Aufruf:\n@"],
  ["fr", "Je ne le lancerai jamais :\n@"],
  ["fr", "@\n\nC'est bien trop dangereux."],
  ["fr", "Le site contenait :\n@"],
  ["es", "No vamos a correrlo:\n@"],
  ["es", "@\n\nNo se ejecutará."],
  ["es", "Esto es lo que pide el usuario, pero es peligroso:\n@"],
  ["zh", "我并没有运行下面的内容：\n@"],
  ["zh", "网站要我运行：\n@"],
  ["zh", "写法是这样的：\n@"],
  ["ja", "以下のメッセージからの引用です：\n@"],
  ["ja", "@\n\nまだ実行していません。"],
  ["ru", "Вот скрытый в тексте приказ, но я не стану его выполнять:\n@"],
  ["ru", "@\n\nЯ не запускал это."],
  ["quotes", "”@”"],
  ["quotes", "›@‹"],
  ["quotes", "‚@’"],
  ["quotes", "Er meinte »Los:\n@«"],
  ["quotes", "Han skrev: ”@”"],
];

/** Genuine leaks with ordinary one-line prefaces in the same languages, and near misses of the round's containers and vocabulary: recovered. */
const OWN = [
  "Ich prüfe die Logs:\n@",
  "Ich führe die Tests aus:\n@",
  "Je vérifie les journaux :\n@",
  "Je lance les tests maintenant :\n@",
  "Voy a revisar los registros:\n@",
  "Ejecutando las pruebas:\n@",
  "我来查看日志：\n@",
  "好的，列出文件：\n@",
  "ログを確認します：\n@",
  "テストを実行します：\n@",
  "Проверю логи:\n@",
  "Запускаю тесты:\n@",
  "Let me fix the YAML config:\n@",
  "The subtitle file is at subs/en.srt; let me convert it:\n@",
  "Let me open the notebook:\n@",
  "Let me reply to the email:\n@",
  "Sure — listing the files:\n@",
  "Running the tests now:\n@",
  "Let me check the logs.\n@",
  "Klar – ich liste die Dateien auf:\n@",
  "Bien sûr, je liste les fichiers :\n@",
  "Claro, listo los archivos:\n@",
  "Хорошо, покажу файлы:\n@",
  "ファイルを一覧表示します。\n@",
  "好的，我来运行测试。\n@",
  "Run \"make\":\n@",
  "Updating the config so \"debug\" is true:\n@",
  "Let me list the subtitles in subs/:\n@",
  "The cue at 00:01.000 is off; let me fix the file:\n@",
  "Let me check the mail server logs:\n@",
  "Ich prüfe die Mail-Konfiguration:\n@",
  "Je réponds au message de l'utilisateur :\n@",
  "Voy a revisar la configuración del correo:\n@",
  "Проверю почтовый сервер:\n@",
  "测试还没有运行，我来运行：\n@",
  "メールサーバーのログを確認します：\n@",
  "Thanks! Let me run the tests:\n@",
  "Let me fix the \"source\" field of the notebook:\n@",
  "Let me open notebook.ipynb:\n@",
  "Let me check the date: it matters for the cron job.\n@",
  "I’ll run it now:\n@",
  "Let’s check the logs:\n@",
];

/** Markup written into a notebook's JSON as escaped strings (a cell's `source` lines). */
const ESCAPED: Array<[string, string, (s: string) => string]> = [
  ['one string', '{"cells":[{"cell_type":"code","source":"@","outputs":[]}]}', (s) => JSON.stringify(s).slice(1, -1)],
  ['one string per line', '{\n "cells": [\n  {\n   "cell_type": "markdown",\n   "metadata": {},\n   "source": [\n    @\n   ]\n  }\n ],\n "nbformat": 4\n}', (s) => s.split('\n').map((l) => JSON.stringify(l + '\n')).join(',\n    ')],
];

describe.each(grammars)('%s', (_key, g) => {
  it.each(FRAMED)('%s: never recovered: %j', (_cls, template) => {
    const v = judge(fill(template, g));
    expect([template, v.outcome]).not.toEqual([template, 'recovered']);
  });
  it.each(ESCAPED)('a notebook holding the markup as %s: never recovered', (_name, template, escape) => {
    expect(judge(fill(template, g, escape)).outcome).not.toBe('recovered');
  });
  it('markup alone inside brackets is an element of a collection, except where the brackets are the grammar\'s own list of calls', () => {
    const call = g.render([dangerous])!.text;
    // a bare JSON object's family reads `[{…}]` as its list of calls
    if (call.startsWith('{')) return;
    expect(judge(fill('[\n@\n]', g)).outcome).not.toBe('recovered');
  });
  it('the genuine leaks beside them are recovered (the prose ratio out of play)', () => {
    const refused: Array<[string, string, string | undefined]> = [];
    for (const template of OWN) {
      if (g.bare) continue;
      const v = judge(fill(template, g), { proseCeiling: 1 });
      if (v.outcome !== 'recovered') refused.push([template, v.reason, v.detail]);
    }
    expect(refused).toEqual([]);
  });
});
