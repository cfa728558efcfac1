/**
 * Framing vocabulary (./types.ts) of e-mail, in the languages of ./others.ts: the conventions by
 * which a reply shows that the markup is a letter's text, not its own output. Headers of a message
 * (RFC 5322 §3.6, https://www.rfc-editor.org/rfc/rfc5322#section-3.6: `Subject:`, and `From:`, `To:`,
 * `Date:` holding an address or a year) and the separator lines mail clients write over a forwarded
 * or quoted message; the attribution line of a reply (`On …, Alice <a@b.c> wrote:`, in the forms of
 * common clients); after the markup, a sign-off on its own line followed by a line (the name), a mobile client's `Sent from my …`, or the signature separator
 * `-- ` (RFC 3676 §4.3, https://www.rfc-editor.org/rfc/rfc3676#section-4.3). BCP 47 `mul`: one
 * entry holds the forms of several languages.
 */

import type { FramingLanguage } from './types.js';

export const MAIL: FramingLanguage = {
  language: 'mul',
  entries: [
    {
      id: 'mail-header',
      says: 'the headers of an e-mail',
      place: 'before',
      pattern:
        "(?:^|\\n)(?:subject|betreff|objet|asunto|assunto|oggetto|onderwerp|temat|тема|主题|主旨|件名) ?: ?\\S|(?:^|\\n)(?:from|to|cc|reply-to|sent|date|von|an|gesendet|datum|de|à|para|envoyé|enviado|от|кому|отправлено|дата|发件人|收件人|差出人|宛先) ?: [^\\n]{0,120}(?:@[\\w-]+\\.[\\w.-]+|\\b(?:19|20)\\d\\d\\b)|(?:^|\\n)forwarded by [^\\n]{1,60}:|-{2,} ?(?:original message|forwarded message|ursprüngliche nachricht|weitergeleitete nachricht|message d'origine|message transféré|mensaje original|mensaje reenviado|исходное сообщение|пересланное сообщение|原始邮件|转发的邮件) ?-{2,}",
      match: ['Subject: Re: cleanup', 'From: Bob <bob@acme.io>\nSent: Monday, November 30, 2026 10:02', '---------- Forwarded message ---------', '-----Original Message-----', 'Forwarded by Alice on 30/11/2026:', 'Betreff: Aufräumen', 'От: Иван <ivan@acme.ru>', '件名：お願い'],
      not_match: ['From the repo root:', 'To do: list the files.', 'Date handling is broken; let me run the tests:', 'Let me reply to the email:'],
    },
    {
      id: 'mail-attribution',
      says: "the attribution line of a quoted e-mail",
      place: 'before',
      pattern:
        "(?:\\bwrote|\\bwrites|\\bschrieb|\\ba écrit|\\bescribió|\\bescreveu|\\bha scritto|\\bschreef|(?<!\\p{L})napisał\\p{L}*|(?<!\\p{L})написал\\p{L}*|写道|寫道|のメッセージ)(?: (?:am|on|le|el|il|op|em) [^\\n]{1,40})? ?(?:\\([^)\\n]{0,10}\\))? ?:(?: |\\n|$)|@[\\w-]+(?:\\.[\\w-]+)+>?\\)?(?: \\[[^\\]\\n]{1,40}\\])? ?:(?:\\n|$)",
      match: ['On Mon, 30 Nov 2026 at 10:02, Alice <alice@acme.io> wrote:', 'Bob Muster schrieb am 30.11.2026 um 10:02:', "Le lun. 30 nov. 2026 à 10:02, Alice <alice@acme.io> a écrit :", '30 нояб. 2026 г., в 10:02, Alice <alice@acme.io> написал(а):', '2026年11月30日(月) 10:02 Alice <alice@acme.io>:', 'Alice Lind <alice@acme.io> writes:', '* Alice Lind <alice@acme.io> [2026-11-30 10:02]:'],
      not_match: ['The subtitle file is at subs/en.srt; let me convert it:', 'Let me email alice@acme.io the results:', 'I rewrote the parser; let me run the tests:'],
    },
    {
      id: 'mail-sign-off',
      says: 'the sign-off of a letter',
      place: 'after',
      pattern:
        "(?:^|\\n)(?:(?:best|kind|warm|many|with) )?(?:best|regards|thanks|thank you|cheers|sincerely|best wishes|yours(?: truly| sincerely)?|mit freundlichen grüßen|freundliche grüße|viele grüße|beste grüße|gruß|cordialement|bien à vous|amicalement|saludos|atentamente|un saludo|cumprimentos|с уважением|всего доброго|此致|敬上|よろしくお願いします|以上),? ?\\n[^\\n]{1,40}(?:\\n|$)|(?:^|\\n)-- ?\\n\\S|(?:^|\\n)sent from my \\S",
      match: ['Best regards,\nBob', 'Thanks,\nCarol', 'Mit freundlichen Grüßen\nAlice Muster', '-- \nAlice Muster\nSenior Engineer', 'С уважением,\nИван', 'Thanks,\nCarol\n\nSent from my iPhone', 'Best,\nAlice'],
      not_match: ['Thanks!', 'Let me know if the tests pass.', 'The tests pass now.', 'Thanks!\nThe tests pass now.'],
    },
  ],
};
