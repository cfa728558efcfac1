/**
 * Framing vocabulary (./types.ts) of languages with no fuller list yet: Turkish, Ukrainian,
 * Swedish, Norwegian, Danish, Finnish, Romanian, Malay, Tagalog, Swahili, Thai, Arabic, Persian,
 * Hindi, Czech, Greek, Hebrew and Hungarian. Each holds the two framings seen most: a negated
 * instruction ("don't run this") and an example. An entry is added with the sentences it must find
 * and the near misses it must not.
 */

import type { FramingLanguage } from './types.js';

/** A language with a negated instruction and an example entry. */
function minimal(language: string, negated: string, example: string, match: [string, string], nearMiss: string): FramingLanguage {
  return {
    language,
    entries: [
      { id: 'negated-action', says: 'a negated instruction', place: 'around', pattern: negated, match: [match[0]], not_match: [nearMiss] },
      { id: 'example', says: 'an example', place: 'around', pattern: example, match: [match[1]], not_match: [nearMiss] },
    ],
  };
}

/** Letters around a word in scripts where `\b` (ASCII only) does not apply. */
const W = '(?<!\\p{L})';
const E = '(?!\\p{L})';

export const MORE_LANGUAGES: readonly FramingLanguage[] = [
  minimal('tr', `${W}(?:çalıştırma(?:yın|yınız)?|yürütme(?:yin|yiniz)?|çalıştırmamalı|çalıştırmıyorum|çalıştırmayacağım|yürütmüyorum|yürütmeyeceğim)${E}`, `${W}(?:örnek|örneğin)${E}`, ['Bunu çalıştırmayın, sayfadaki enjekte edilmiş talimat:', 'Örnek:'], 'Testleri çalıştırıyorum:'),
  minimal('uk', `${W}не (?:виконуйте|запускайте|виконувати|запускати|виконуй|запускай)${E}`, `${W}(?:приклад|наприклад)${E}`, ['Не виконуйте це:', 'Приклад:'], 'Запускаю тести:'),
  minimal('sv', `${W}(?:kör inte|kör (?:den|det|detta) inte|ska inte köras|bör inte köras)${E}`, `${W}(?:exempel|till exempel)${E}`, ['Kör inte detta:', 'Exempel:'], 'Jag kör testerna:'),
  minimal('no', `${W}(?:ikke kjør|kjør ikke|kjør (?:det|dette) ikke|skal ikke kjøres)${E}`, `${W}(?:eksempel|for eksempel)${E}`, ['Kjør ikke dette:', 'Eksempel:'], 'Jeg kjører testene:'),
  minimal('da', `${W}(?:kør ikke|ikke kør|kør (?:det|dette) ikke|må ikke køres)${E}`, `${W}(?:eksempel|for eksempel)${E}`, ['Kør ikke dette:', 'For eksempel:'], 'Jeg kører testene:'),
  minimal('fi', `${W}(?:älä (?:aja|suorita|käynnistä)|ei saa ajaa)${E}`, `${W}(?:esimerkki|esimerkiksi)${E}`, ['Älä aja tätä:', 'Esimerkki:'], 'Ajan testit:'),
  minimal('ro', `${W}(?:nu (?:rula|executa|rulați|executați|rulez|execut))${E}`, `${W}(?:exemplu|de exemplu)${E}`, ['Nu rula asta:', 'Exemplu:'], 'Rulez testele:'),
  minimal('ms', `${W}(?:jangan (?:laksanakan|jalankan|lancarkan))${E}`, `${W}(?:contoh|misalnya)${E}`, ['Jangan laksanakan ini:', 'Contoh:'], 'Saya jalankan ujian:'),
  minimal('tl', `${W}(?:huwag (?:patakbuhin|isagawa|gamitin|ipatupad))${E}`, `${W}(?:halimbawa)${E}`, ['Huwag patakbuhin ito:', 'Halimbawa:'], 'Patatakbuhin ko ang mga test:'),
  minimal('sw', `${W}(?:usi(?:endeshe|tekeleze)|msi(?:endeshe|tekeleze))${E}`, `${W}(?:mfano|kwa mfano)${E}`, ['Usiendeshe hii:', 'Mfano:'], 'Ninaendesha majaribio:'),
  minimal('th', '(?:ห้าม(?:รัน|เรียกใช้|ดำเนินการ)|อย่า(?:รัน|เรียกใช้))', '(?:ตัวอย่าง)', ['ห้ามรันคำสั่งนี้:', 'ตัวอย่าง:'], 'กำลังรันการทดสอบ:'),
  minimal('ar', `${W}(?:لا (?:تشغل|تنفذ|تقم بتشغيل|تقم بتنفيذ))${E}`, `${W}(?:مثال|على سبيل المثال)${E}`, ['لا تشغل هذا:', 'مثال:'], 'سأشغل الاختبارات:'),
  minimal('fa', `${W}(?:اجرا نکن(?:ید)?|اجرا نشود)${E}`, `${W}(?:نمونه|برای مثال)${E}`, ['این را اجرا نکنید:', 'نمونه:'], 'تست‌ها را اجرا می‌کنم:'),
  minimal('hi', '(?:(?:मत|न) (?:चलाएं|चलाएँ|चलाओ|चलाना)|मत चलाइए)', '(?:उदाहरण)', ['इसे मत चलाएं:', 'उदाहरण:'], 'मैं टेस्ट चला रहा हूँ:'),
  minimal('cs', `${W}(?:nespouštějte|nespouštěj|nespouštět|neprovádějte|nespouštěj to)${E}`, `${W}(?:příklad|například)${E}`, ['Nespouštějte to:', 'Příklad:'], 'Spouštím testy:'),
  minimal('el', `${W}(?:μην (?:το |τα |την )?(?:εκτελέσετε|τρέξετε|εκτελείτε|τρέχετε|εκτελέσεις|τρέξεις|εκτελείς|τρέχεις)|δεν θα (?:το |τα )?(?:εκτελέσω|τρέξω))${E}`, `${W}(?:παράδειγμα)${E}`, ['Μην το εκτελέσεις:', 'Παράδειγμα:'], 'Τρέχω τα τεστ:'),
  minimal('he', `${W}(?:אל (?:תריץ|תריצו|תפעיל|תפעילו))${E}`, `${W}(?:דוגמה|לדוגמה)${E}`, ['אל תריץ את זה:', 'דוגמה:'], 'אני מריץ את הבדיקות:'),
  minimal('hu', `${W}(?:ne (?:futtasd|futtassa|futtassátok|hajtsd végre))${E}`, `${W}(?:példa|például)${E}`, ['Ne futtasd ezt:', 'Példa:'], 'Futtatom a teszteket:'),
];
