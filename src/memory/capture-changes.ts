/**
 * What a captured statement changes in memory (issue 19): whether it states a change at all, and which
 * current fact it replaces (a correction by its words, an old value named as gone, a new value for what a
 * fact holds, a role's new holder), leaving alone the facts a clause only says as usual. The words memory
 * compares facts by are here too, so that capture.ts and this module read facts alike.
 */
import { shareOf, spokenText, type CapturedFact } from '../core/capture.js';
import { addsValue, countGap, givesNewValue, newCountOf, newValueOf, statedValues } from '../core/capture-values.js';
import { contentStems as stemsOf } from '../core/relevant-block.js';
import type { Fact } from '../core/types.js';

/**
 * The content stems memory compares facts by. "User" is not one: a fact an agent stored about the user
 * says "User keeps the family tree on Ancestry", while the user says "I've moved the family tree off
 * Ancestry", so the word would only stand between a statement and the fact it restates or changes.
 */
export function contentStems(text: string): Set<string> {
  const out = stemsOf(text);
  out.delete('user');
  return out;
}

/** A correction replaces the current fact that shares at least this share of its content words. */
export const CORRECTS = 0.25;
/**
 * A fact the user says memory knows ("is still", "as you know", "like always", "hasn't changed") is a current
 * one whose content words it holds at least this much of (two or more): said to be known, a quarter of the
 * fact's words name it ("Still biweekly fridays" for "Payroll runs biweekly on Fridays through Gusto").
 */
export const RESTATED = 0.25;

/** A statement of change ("moved to", "is ... now", "switched", "went up", "no longer", "i had that wrong"; not "for now"): the fact it states replaces one. */
const CHANGE = /\b(?:(?<!\bfor )now|moved|moves|moving|changed|switched|swapped|renamed|tak(?:ing|es)? over|took over|replaced|pushed|bumped|dropped|migrated|upgraded|no longer|any ?more|instead|as of|starting|got (?:moved|changed|cut|pushed|bumped)|cut to|goes to|went to|going forward|new|expanded|grew|increased|raised|reduced|lowered|doubled|halved|switch(?:ing)?|converted|(?:went|goes|going|gone) (?:up|down)|(?:had|got) (?:that|it|this) wrong|misspoke)\b/i;
/** Said to be unchanged ("that part didn't change", "hours are the same"): not a statement of change, whatever words follow. */
const UNCHANGED = /\b(?:(?:has|have|did|does|is|was)n[o']?t (?:changed?|moved)|(?:has|have|did|does) not (?:changed?|moved)|(?:nothing|none of (?:that|this|it|those))(?:'s| has| have)? changed|nothing new|(?:is|are|stays?|stayed|remains?) the same|unchanged|for \d+\+? (?:years?|yrs?|months?) now|\d+\+? (?:years?|yrs?) now)\b/gi;
/** The text states a change, not counting what it says is unchanged. */
export function saysChange(text: string): boolean {
  return CHANGE.test(text.replace(UNCHANGED, ' '));
}
/**
 * A changed fact replaces the current one whose content words it mostly holds: at least this share, and two or
 * more besides values and GENERIC words ("surgeries on tuesdays and thursdays" holds two of "User sets on
 * Tuesdays and Thursdays", both weekdays: not the same fact).
 */
export const CHANGED = 0.5;

/** The current fact a statement of change replaces: the one of `near` whose content words it holds most. */
function changes(said: ReadonlySet<string>, near: readonly Fact[], text: string): Fact | null {
  let best: { fact: Fact; share: number } | null = null;
  const value = statedValueWord(text);
  for (const fact of near) {
    const held = contentStems(fact.text);
    // The value the statement gives is the fact's already ("our head coach is Hollis now" for "Team's head coach is Hollis"): said again, not changed.
    if (value !== null && held.has(value)) continue;
    const share = heldShare(held, said);
    if (share >= CHANGED && names(fact, said) && namedWords(held, said).length >= 2 && (!best || share > best.share)) best = { fact, share };
  }
  return best?.fact ?? null;
}

/** The one word a statement gives as what something is, ending its clause ("is Hollis now,", "'s Dolores."): its stem, or null. */
function statedValueWord(text: string): string | null {
  const word = /(?:\b(?:is|are)|(?<=\p{L})['’](?:s|re))\s+(?:now\s+)?(\p{L}[\p{L}'-]*)(?:\s+now)?\s*(?:[,.;!?]|$)/iu.exec(text);
  const stems = [...contentStems(word?.[1] ?? '')];
  return stems.length === 1 && !GENERIC.has(stems[0] ?? '') ? (stems[0] ?? null) : null;
}

/**
 * The statement names what the fact is about: a word of its entity, or else its first content word (the
 * first two of a fact about the "User": "User keeps the family tree ..." is about keeping the family tree).
 */
function names(fact: Fact, said: ReadonlySet<string>): boolean {
  // Whose it is, or what of theirs: "Riverbend's backup hospital is St. Agnes" is named by "our backup hospital is ...".
  const subject = fact.entity ? [...contentStems(fact.entity)] : [...contentStems(fact.text)].slice(0, /^(?:user\b|[\p{L}\d-]+['’]s\s)/iu.test(fact.text) ? 2 : 1);
  return subject.length === 0 || subject.some((w) => said.has(w));
}

/**
 * The old value a statement of change names as gone: "no longer at the Grange", "moved staging off the Dokku
 * box", "switched from Enphase", "we dropped the Switch port", "scratch android first", "left keller williams",
 * "isn't with Elena anymore". Its first word after the frame, past a title or "st." ("not at st brendan's").
 */
const OLD_VALUE = /(?:\b(?:swapped(?: out)?\s+(?:the|a|our|my)\s+|no longer(?:\s+[\w'-]+)?\s+(?:with|at|on|in|for|using|from|the|a|our|my)\s+(?:the\s+|a\s+|our\s+|my\s+)?|no longer\s+(?:doing|using|use|running|run|taking|playing|going to|offering|carrying)\s+(?:the\s+|a\s+|our\s+|my\s+)?|(?:moved|moving|switched|switching|migrated|migrating|converted|went|came)(?:\s+[\w'-]+){0,2}?\s+(?:off|away from|from)\s+(?:of\s+|the\s+|a\s+|our\s+|my\s+)?|(?:dropped|ditched|dumped|scratch(?:ed)?|scrapped|cancell?ed|pulled out of|got rid of|replaced|retired|left|lost|ripped out|sold|finished(?!\s+[\w-]+ing\b)|handed off|gave up|stopped(?:\s+(?:doing|using|offering|taking|carrying|selling)|(?=\s+(?:the|our|my)\s)))\s+(?:the\s+|a\s+|our\s+|my\s+)?)|(?<=\w)n['’]t (?:with|at|on|in|using|from)\s+(?:the\s+|a\s+|our\s+|my\s+)?)(?:(?:st|mt|ft|dr|mr|mrs|ms)\.?\s+)?\$?([\p{L}\d][\p{L}\d.'-]*)/giu;
/**
 * The old value a weaker frame names ("instead of the school", "not my name", ", not thursdays", "36.2 now not 36.4", "he's off fixodent"): taken only when
 * the fact writes it as a name or shares another word with the statement (writtenAsName, holdsOldValue).
 */
const WEAK_OLD_VALUE = /(?:\b(?:not (?:with|at|on|in|using|from|the|a|an|our|my)\s+|instead of\s+(?:the\s+|a\s+|our\s+|my\s+)?|rather than\s+(?:the\s+|a\s+)?|(?:(?<=\p{L})['’](?:s|re|m)|\b(?:is|are|am))\s+off\s+(?:the\s+|a\s+|our\s+|my\s+|of\s+)?)|(?:,|\bnow,?)\s*not\s+(?:the\s+|a\s+|an\s+)?)(?:(?:st|mt|ft|dr|mr|mrs|ms)\.?\s+)?\$?([\p{L}\d][\p{L}\d.'-]*)/giu;

/** An old value said to be gone before the words that say so: "mr delgado retired", "the 40 breeder is gone", "kesh is done", "hg19 is dead to us", "the epson died". */
const GONE_VALUE = /([\p{L}\d][\p{L}\d.'-]*)\s+(?:(?:finally|just|already|officially|basically|totally|completely|has|have)\s+)?(?:retired|retiring|quit|quitting|stepped down|stepping down|(?:is |'s )?leaving|moved away|passed away|(?:is|are|'s) (?:gone|done|history|over|dead|toast)|died|gave out|closed (?:down|for good)|stopped (?:hosting|carrying|offering|selling|making|running|doing))\b/giu;

/** An old value said to be gone before "anymore": "the backend isnt laravel anymore", "we're not on heroku any more", "not doing grandma's anymore". */
const NOT_ANYMORE = /(?:\bnot|n['’]?t)\s+(?:(?:doing|using|running|taking|playing|seeing|going to)\s+)?(?:(?:on|in|at|with|using|from|the|a|an|our|my)\s+){0,2}([\p{L}\d][\p{L}\d.'-]*)\s+any ?more\b/giu;

/**
 * A sentence without a word of change corrects a fact only by saying what something is in place of the old
 * value ("My advisor is Dr. Ellen Walsh, not Marsh", "it's 16 boxes not 14", "the renewal is due in june not
 * march"): the weak frame, or BARE_NOT, after "is", "are", "was", "'s" in its sentence. Without it, "not X" is
 * mostly a request or a taste ("the mesh only covers the payments namespace, not the whole cluster", "give me
 * gdscript answers, not c#").
 */
const SAYS_IS = /(?:\b(?:is|are|was|were)|\p{L}['’](?:s|re))\s(?:[^.!?;]|(?<=\b(?:dr|mr|mrs|ms|st|mt|ft))\.)*$/iu;
/** A value said in place of another without a comma ("16 boxes not 14", "due in june not march"; not "is not", "we not"), for SAYS_IS. */
const BARE_NOT = /(?<!\b(?:is|are|was|were|do|does|did|can|could|will|would|should|have|has|had|i|we|you|they|it|that|this|just|if|or|and|but|why|so|may|might|must|need|want|still|ve|s|re|m|t))\s+not\s+(?:the\s+|a\s+|an\s+)?(?:(?:st|mt|ft|dr|mr|mrs|ms)\.?\s+)?\$?([\p{L}\d][\p{L}\d.'-]*)/giu;

/** The content stems of the old values a statement of change names, by the frames that name them (`saysIs`: only after SAYS_IS). */
function oldValues(text: string, frames: readonly RegExp[], saysIs = false): Set<string> {
  const out = new Set<string>();
  for (const re of frames)
    for (const m of text.matchAll(re)) {
      if (saysIs && !SAYS_IS.test(text.slice(0, m.index))) continue;
      const value = m[1] ?? '';
      // A number is one value whole: "dropped 3.0" names "3.0", never the 3 of "Level 2-3".
      if (/^\d+(?:\.\d+)+$/.test(value)) out.add(value);
      // A whole number however it is written: "the 4th", "8pm", "85k" name 4, 8 and 85 (holdsIn).
      else if (/^\d+(?:st|nd|rd|th|am|pm|k)?$/i.test(value)) out.add(value.replace(/\D+$/, ''));
      else if (!NO_VALUE.test(value)) for (const w of contentStems(value)) out.add(WEEKDAY_WORD.test(w) ? weekdayStem(w) : w);
    }
  return out;
}
/** Words a frame can name that point at the old value without being it ("switched from the old one", "not at st brendan's"). */
const NO_VALUE = /^(?:old|older|one|ones|other|others|previous|former|last|first|same|usual|current|it|that|this|them|st|mt|ft|dr|mr|mrs|ms)$/i;

/** `stem` is written as a name in `text`: capitalised after its first word, and not a weekday or a month. */
function writtenAsName(text: string, stem: string): boolean {
  return (text.match(/[\p{L}\d][\p{L}\d.'-]*/gu) ?? []).some((t, i) => i > 0 && /^\p{Lu}/u.test(t) && !DATE_WORD.test(t) && contentStems(t).has(stem));
}
/** A weekday, as written ("Thursdays", "tues") or as its stem ("thursdai"): whole words only, so "friend" and "money" are not. */
const WEEKDAY = String.raw`(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day|dai)?s?`;
const WEEKDAY_WORD = new RegExp(`^${WEEKDAY}$`, 'i');
/** A weekday as its whole word's stem, however it is written: "tue", "tues", "Tuesdays" -> "tuesdai". */
function weekdayStem(w: string): string {
  const day = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].indexOf(w.slice(0, 3).toLowerCase());
  return ['mondai', 'tuesdai', 'wednesdai', 'thursdai', 'fridai', 'saturdai', 'sundai'][day] ?? w;
}
const DATE_WORD = new RegExp(String.raw`^(?:${WEEKDAY}|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)$`, 'i');

/** A role a person holds for the user, the roles a statement of a new holder names. */
const ROLE = String.raw`(?:coach|manager|director|principal|doctor|dentist|vet|[a-z]*ologist|pediatrician|physician|therapist|counselor|accountant|lawyer|attorney|assistant|tutor|teacher|instructor|trainer|contact|rep|lead|captain|president|treasurer|secretary|chair|landlord|nanny|sitter|editor|agent|advisor|adviser|supervisor|boss|pastor|mechanic|groomer|farrier|coordinator|planner|officer|ed|ceo|cto|cfo)`;
/** "our new office manager is Yolanda Pruitt", "our coach is Min-jun now": the role and its new holder. */
const NEW_HOLDER = new RegExp(String.raw`\b(?:my|our|the|his|her|their)\s+(?:new\s+)?((?:[\p{L}-]+\s+)?${ROLE})\s+(?:is|'s)\s+(?:now\s+)?(?:dr\.?\s+|mr\.?\s+|ms\.?\s+|mrs\.?\s+)?([\p{L}][\p{L}'-]*)`, 'iu');

/** The current fact a statement of a role's new holder replaces: one that says who holds that role ("office manager is Terri"), someone else. */
function formerHolder(text: string, near: readonly Fact[]): Fact | null {
  const m = NEW_HOLDER.exec(text);
  if (!m?.[1] || !m[2]) return null;
  const role = m[1].toLowerCase().split(/\s+/);
  const holder = m[2].toLowerCase();
  return near.find((f) => new RegExp(String.raw`\b${role.at(-1)}\s+(?:is|'s)\s`, 'i').test(f.text) && !f.text.toLowerCase().includes(holder)) ?? null;
}

/**
 * `fact` holds an old value: a whole number as a number of its own, however it is written ("March 4", "8pm",
 * "$85k"; not the 4 of "14" or "4.5"), a number with a point as written ("Ruby 3.0"), a weekday however it is
 * written ("Tue", "Tuesdays"), the rest by stem.
 */
function holdsIn(fact: Fact, w: string, held: ReadonlySet<string>): boolean {
  if (/^\d+$/.test(w)) return new RegExp(String.raw`(?<![\d.,])${w}(?![\d]|[.,]\d)`).test(fact.text);
  return w.includes('.') ? new RegExp(String.raw`(?<![\d.])${w.replace(/\./g, '\\.')}(?![\d.]*\d)`).test(fact.text) : held.has(w) || [...held].some((h) => WEEKDAY_WORD.test(h) && weekdayStem(h) === w);
}

/** The current fact of `near` that holds an old value the statement names as gone; the one holding most of the statement's words. */
function holdsOldValue(text: string, said: ReadonlySet<string>, near: readonly Fact[], saysIs = false, context?: ReadonlySet<string>): Fact | null {
  const old = saysIs ? new Set<string>() : oldValues(text, [OLD_VALUE, GONE_VALUE, NOT_ANYMORE]);
  const weak = saysIs ? oldValues(text, [WEAK_OLD_VALUE, BARE_NOT], true) : oldValues(text, [WEAK_OLD_VALUE]);
  if (old.size === 0 && weak.size === 0) return null;
  const named = near.filter((fact) => {
    const held = contentStems(fact.text);
    const holds = (w: string) => holdsIn(fact, w, held);
    if ([...old].some(holds)) return true;
    // Named by a weaker frame: a name in the fact ("instead of Venmo"), or the two share a word besides it
    // (always, when no word says a change); with a word of change, one the user said elsewhere in the
    // conversation counts ("We're on thursdays now not tuesdays" in a talk about the community fridge).
    const gone = [...weak].filter(holds);
    const sharesMore = gone.length > 0 && !namedWords(held, context && !saysIs ? new Set([...said, ...context]) : said).every((w) => weak.has(w));
    return sharesMore || (!saysIs && gone.some((w) => writtenAsName(fact.text, w)));
  });
  return holdingMost(named, said);
}

/** Of `facts`, the one whose content words `said` holds the largest share of (the first of equals); null for none. */
function holdingMost(facts: readonly Fact[], said: ReadonlySet<string>): Fact | null {
  let best: { fact: Fact; share: number } | null = null;
  for (const fact of facts) {
    const share = shareOf(contentStems(fact.text), said);
    if (!best || share > best.share) best = { fact, share };
  }
  return best?.fact ?? null;
}

/**
 * With no word of change, the current fact of `near` naming someone or something the statement says is gone
 * ("Her name is priscilla, dolores retired last year"): only by a name the fact writes as one, since "thousands of
 * people died" and "students are over 65" name no old value.
 */
function namedAsGone(text: string, said: ReadonlySet<string>, near: readonly Fact[]): Fact | null {
  const gone = oldValues(text, [GONE_VALUE]);
  if (gone.size === 0) return null;
  return holdingMost(
    near.filter((fact) => [...gone].some((w) => holdsIn(fact, w, contentStems(fact.text)) && writtenAsName(fact.text, w))),
    said,
  );
}

/**
 * The current fact of `near` a statement of change gives a new value for ("Starlite league moved to
 * thursdays" for "League night is Tuesday at Starlite Lanes"): the sentence that says the change shares two or
 * more words with the fact besides values and GENERIC words, and its clause that says the change states a value
 * of a kind the fact holds, differently (or, sharing three, a new word before one of them: newModifier); the
 * one sharing most words. One shared word is too little ("a $40 no-show fee" is not a new "Dog adoption fee is
 * $150") unless it is what both count with a new number ("up to 17 alpacas" for "has 14 alpacas": newCountOf),
 * or what both say a value of and no other fact near holds ("bumped minSdk to 26" for "App minSdk is 24":
 * valueOfWord).
 */
function newValueFor(text: string, near: readonly Fact[]): Fact | null {
  let best: { fact: Fact; shared: number; gap: number } | null = null;
  const held = near.map((f) => contentStems(f.text));
  const holders = (word: string) => held.filter((h) => h.has(word)).length;
  // What the change is said of may sit in another clause of its sentence ("Lesson's thursdays at 6:30 now, rosalind
  // shuffled her week"); the value is compared in the clause that says the change.
  const changed = text
    .split(SENTENCE_END)
    .filter(saysChange)
    .flatMap((sentence) => sentence.split(CHANGE_CLAUSE).filter(saysChange).map((clause) => ({ clause, said: contentStems(sentence) })));
  for (const { clause, said } of changed) {
    for (const [i, fact] of near.entries()) {
      const shared = namedWords(held[i] ?? new Set(), said);
      if (!(shared.length >= 2 || (shared.length === 1 && valueOfWord(fact.text, clause, shared[0] ?? '', holders)))) continue;
      if (!givesNewValue(fact.text, clause) && !addsValue(fact.text, clause) && !(shared.length >= NAMES_A_MODIFIER && newModifier(fact.text, clause))) continue;
      // Of facts that share as many words, the one whose count is nearest the new one ("8 boxes" for 6 nest boxes, not 480 on a mail route).
      const gap = countGap(fact.text, clause);
      if (!best || shared.length > best.shared || (shared.length === best.shared && gap < best.gap)) best = { fact, shared: shared.length, gap };
    }
  }
  return best?.fact ?? null;
}

/**
 * Shared words a statement needs before a new word said of one of them is a new value (newModifier): "our dagger
 * pipelines are on the go sdk now" names three of "Team's CI pipelines are written with Dagger using the Python
 * SDK". With two, the same user's other facts were replaced as often as the right one (eval/capture dev,
 * rounds 1-56, one store: 8 more corrections, 59 more wrong replacements; with three: 4 more, 3 more wrong).
 */
const NAMES_A_MODIFIER = 3;

/**
 * A thing both name, said of with another word: "the go sdk" for "using the Python SDK". The word before it in
 * the clause is new to the fact, and the fact's word before it is not in the clause.
 */
function newModifier(factText: string, clause: string): boolean {
  const pairs = (text: string) => {
    const words = text.toLowerCase().match(/[\p{L}\d][\p{L}\d'-]*/gu) ?? [];
    return words.slice(1).flatMap((w, i) => {
      const [head, mod] = [[...contentStems(w)], [...contentStems(words[i] ?? '')]];
      return head.length === 1 && mod.length === 1 && !/\d/.test(mod[0] ?? '') && !GENERIC.has(head[0] ?? '') ? [{ head: head[0] as string, mod: mod[0] as string }] : [];
    });
  };
  const [held, said] = [contentStems(factText), contentStems(clause)];
  const factPairs = pairs(factText);
  return pairs(clause).some((n) => !held.has(n.mod) && factPairs.some((o) => o.head === n.head && !said.has(o.mod)));
}

/**
 * The one word a clause shares with a fact is what both give a value of: a new count of it ("up to 17
 * alpacas"), or a new value said just after it ("minSdk to 26") when no other near fact holds the word.
 */
function valueOfWord(factText: string, clause: string, word: string, holders: (word: string) => number): boolean {
  return newCountOf(factText, clause) === word || (newValueOf(factText, clause).has(word) && holders(word) === 1);
}

/** The words of a fact a statement says, besides values (numbers, weekdays) and GENERIC words: what both are about. */
function namedWords(held: ReadonlySet<string>, said: ReadonlySet<string>): string[] {
  return [...held].filter((w) => said.has(w) && !/\d/.test(w) && !WEEKDAY_WORD.test(w) && !GENERIC.has(w));
}

/** Stems too common to say what a fact is about: when and how often, the words of change themselves, titles. */
const GENERIC = new Set(['start', 'new', 'now', 'everi', 'week', 'month', 'year', 'dai', 'time', 'night', 'morn', 'even', 'move', 'switch', 'chang', 'bump', 'go', 'went', 'get', 'got', 'take', 'first', 'last', 'next', 'still', 'free', 'hour', 'minut', 'dr', 'mr', 'mrs', 'ms', 'prof']);
/** Where a sentence of a statement ends, for newValueFor: what a change is said of is read in its sentence. */
const SENTENCE_END = /[.!?;]+\s+/;
/** Where a clause of a statement ends, for newValueFor: a value is compared in the clause that says it changed. */
export const CHANGE_CLAUSE = /[.!?;]+\s+|,\s+|\s+[—–]\s+|\s+(?:so|but|because|bc|since)\s+/i;

/** The share of a current fact's content words a statement holds; 0 when it holds fewer than two. */
export function heldShare(known: ReadonlySet<string>, said: ReadonlySet<string>): number {
  let held = 0;
  for (const w of known) if (said.has(w)) held++;
  return held >= 2 ? held / known.size : 0;
}

/**
 * Two facts are about one thing when either has no entity, or one entity's words hold the other's: the
 * subject a sentence names ("reminder that grafana" -> `reminder-that-grafana`) is often a longer phrase
 * than the entity a fact was stored with (`grafana`).
 */
export function sameEntity(a: string | null, b: string | null): boolean {
  if (a === null || b === null || a.toLowerCase() === b.toLowerCase()) return true;
  const [x, y] = [contentStems(a.replace(/[-_]/g, ' ')), contentStems(b.replace(/[-_]/g, ' '))];
  return x.size > 0 && y.size > 0 && (shareOf(x, y) === 1 || shareOf(y, x) === 1);
}

/**
 * A fact says of what a statement is about, whatever entity it was stored with: "YugabyteDB backups go nightly"
 * (entity `yugabytedb`) says of the backups that "backups are every 6 hours now" is about.
 */
function saysOf(fact: Fact, entity: string | null): boolean {
  if (entity === null) return false;
  const words = new Set([...contentStems(entity.replace(/[-_]/g, ' '))].filter((w) => !GENERIC.has(w)));
  return words.size > 0 && shareOf(words, contentStems(fact.text)) === 1;
}

/** Said as usual ("like always", "as usual", "still"): the sentence says a current fact again, perhaps with more. */
export const AS_USUAL = /\b(?:like always|as usual|as ever|like usual|same as (?:always|before|usual|ever)|like before|still|(?:is|are|stays?|stayed|remains?) the same|(?:has|have|did|does)n'?t changed?|(?:nothing|none of (?:that|this|it|those))(?:'s| has| have)? changed|nothing new|unchanged)\b/i;

/** Every "as usual" phrase of a text, to take them out of its words. */
export const AS_USUAL_ALL = new RegExp(AS_USUAL.source, 'gi');

/** A text's clauses said as usual (their content words, the "as usual" phrases out) and the rest of it. */
interface SaidAsUsual {
  readonly usual: readonly Set<string>[];
  readonly rest: string;
  readonly restStems: Set<string>;
}
function asUsualIn(text: string): SaidAsUsual {
  const clauses = text.split(CHANGE_CLAUSE);
  const usual = (c: string) => AS_USUAL.test(c) && !saysChange(c);
  const rest = clauses.filter((c) => !usual(c)).join(', ');
  return { usual: clauses.filter(usual).map((c) => contentStems(c.replace(AS_USUAL_ALL, ' '))), rest, restStems: contentStems(rest) };
}

/**
 * A fact a clause says as usual, that the rest of the text neither names (two content words) nor gives a new
 * value for, is not the one that changed: "Still deriving types with z.infer. The backend moved to hono" does
 * not replace "User derives types with z.infer", while "office hours moved to wednesdays 10-12, still hale
 * 214" replaces "Office hours are Mondays 1-3pm in Hale 214".
 */
function saidAsUsualOnly(fact: Fact, said: SaidAsUsual): boolean {
  const held = contentStems(fact.text);
  if (!said.usual.some((c) => heldShare(held, c) >= RESTATED)) return false;
  return heldShare(held, said.restStems) === 0 && !givesNewValue(fact.text, said.rest);
}

/** The current fact of `near` that `found` replaces, when it states a change: by the rules above, in order. */
export function replacement(found: CapturedFact, near: readonly Fact[]): Fact | null {
  // A group chat member's name is not a word of what they changed (each of their facts holds it).
  const text = spokenText(found);
  const changing = found.corrects || saysChange(text);
  // No word of change: only a value said in place of the old one ("is Dr. Ellen Walsh, not Marsh"), never a taste ("I prefer alerts in slack, not email").
  if (!changing && found.category === 'preference') return null;
  const stems = contentStems(text);
  const said = asUsualIn(text);
  const about = near.filter((f) => (sameEntity(f.entity, found.entity) || saysOf(f, found.entity)) && !saidAsUsualOnly(f, said));
  // Without one, someone or something said to be gone ("dolores retired last year") names the old value all the same.
  if (!changing) return holdsOldValue(text, stems, about, true) ?? namedAsGone(text, stems, about);
  const corrected = found.corrects ? (about.find((f) => shareOf(stems, contentStems(f.text)) >= CORRECTS) ?? null) : changes(stems, about, text);
  return corrected ?? holdsOldValue(text, stems, about, false, found.context) ?? newValueFor(text, about) ?? formerHolder(text, about);
}

/** The clauses of a statement that say a change (not by "new" alone) and give a value that is not a bare number ("Tuesdays at 6:30 now"): what changedInContext compares. */
export function changedValues(found: CapturedFact): string[] {
  return spokenText(found)
    .split(CHANGE_CLAUSE)
    .filter((c) => saysChange(c.replace(/\bnew\b/gi, ' ')) && statedValues(c).some((v) => SAID_OF_ITSELF(v.kind)));
}

/** A value that says what it is a value of: not a bare number ("10-2", "50/50"), which matches any fact's number. */
const SAID_OF_ITSELF = (kind: string): boolean => kind !== 'n:';

/** The share of a fact's words besides values the conversation must hold for changedInContext to read it as what the conversation is about. */
const ABOUT_SHARE = 0.5;

/**
 * A change said in words the fact does not share ("Tuesdays at 6:30 now, same teacher" for "User has cello lessons
 * Thursdays at 5pm with Ms. Hartley"; `clauses`: its changedValues): of `near`, the facts the conversation is about (`found.context`, the user's
 * words, holds two or more of their words besides values, and at least ABOUT_SHARE of them), the one fact its clause
 * of change gives a new value of a kind it holds; none when several do. Measured on eval/capture dev (rounds 1-70):
 * corrections 522 -> 538 in one store (wrong 296 -> 307, most of them another conversation's shop hours or lesson
 * day), 598 -> 610 isolated (wrong 28 -> 30).
 */
export function changedInContext(found: CapturedFact, clauses: readonly string[], near: readonly Fact[]): Fact | null {
  const context = found.context;
  if (clauses.length === 0 || !context) return null;
  const about = (f: Fact) => {
    const held = contentStems(f.text);
    const named = namedWords(held, context).length;
    return named >= 2 && named >= ABOUT_SHARE * namedWords(held, held).length;
  };
  const hits = near.filter((f) => sameEntity(f.entity, found.entity) && about(f) && clauses.some((c) => givesNewValue(f.text, c, SAID_OF_ITSELF) || addsValue(f.text, c, SAID_OF_ITSELF)));
  return hits.length === 1 ? (hits[0] ?? null) : null;
}
