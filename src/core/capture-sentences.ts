/**
 * The user's sentences as auto-capture reads them (issue 19): injected memory blocks, fenced and unfenced
 * code left out; secret values masked in each line before it is cut; split at sentence ends, line breaks, dashes and clause breaks; an opener ("note:", "one rule
 * for this:") kept with its clause, a sentence that leans on the one before read with it, the items of a
 * list introduced as worth keeping marked `listed`. The rules that read them are src/core/capture.ts.
 */
import { maskLine } from './capture-secrets.js';
import { stripInjected } from './relevant-block.js';
import { onlyNow } from './capture-moment.js';

/** Shorter than this, a piece of text is no fact. */
export const MIN_CHARS = 8;
/** Words that open a sentence without meaning ("ok so", "also", "btw", "no, ..."; never the "no" of "no emojis"). */
export const FILLER = /^(?:(?:ok(?:ay)?|so|also|and|btw|fwiw|tbh|imo|ps|oh|hmm|well|right|yeah|yes|no(?=\s*[,.!:-])|nice|great|cool|thanks|alright|but|then|wait|sorry|honestly|perfect|sure|fine|k)\b[\s,.!:-]*)+/i;
/** A sentence that leans on the one before it ("it's on db2 now"): read together with it. */
const LEANS = /^(?:it|its|it'?s|they|they'?re|that|this|he|she|he'?s|she'?s)\b/i;
/**
 * Clause breaks inside a sentence: a colon, a semicolon, ", " / ", and " before a new subject, before a
 * request to the assistant, or before a question with no question mark ("it stings more, is that normal", "my
 * coworker has a q1 pro, will the same keymap work for him").
 */
const CLAUSE = /(?<=\S):\s+|;\s+|,\s+(?:and\s+|but\s+)?(?=(?:i|i'?m|we|we'?re|my|our|he|she|they)\b|the(?:\s+[\p{L}\d'-]+){1,3}\s+(?:is|are|was|were|has|have|had|will|can|does|do|gets?|goes|runs|needs?|takes?|stays?|'s)\b|[A-Z][\p{L}-]+\s+(?:is|are|takes|does|handles|owns|leads|runs|will|has)\b|[\p{L}-]+\s+(?:hates|loves|prefers|can'?t stand)\b)|,?\s+so\s+(?=(?:(?:can|could|would|will) (?:you|u|it|we)|maybe|pls|please|add|make|put|i need|i'?d like|i want)\b)|,\s+(?=(?:will|would|does|do|can|could|should) (?:the|that|this|my|his|her|they|he|she|i|we)\b(?![^?]*\?))|,?\s+(?=(?:can|could|would) (?:you|u)\b|(?:is|are) (?:that|this|those|these) (?:a |an |the )?(?:normal|same|ok|okay|right|fine|safe|enough|legit|worth it|too much|bad)\b(?![^?]*\?))/u;
/** A clause that is only an opener ("note", "sorry", "update"): it belongs to the clause after it. */
const OPENER = /^(?:(?:ok(?:ay)?|so|also|and)\s+)?(?:please\s+|pls\s+)?(?:save this|save that|write this down|log this|make a note|note that|remember|note|don'?t forget|do not forget|keep in mind|fyi|for the record|heads up|actually|correction|scratch that|sorry|update|to be clear|change of plans?|quick (?:note|update)|some context|context)(?:\s+(?:for|about|on|re|regarding)\s+[\w\s'-]{1,30}|(?:\s+[\w'-]+){1,4})?[\s,.:-]*$/i;
/** A clause that announces what follows ("we decided:", "one rule for this handler:"). */
const LEADS_IN = /\b(?:(?:we(?:'ve| have)? )?(?:decided|agreed)(?: on)?(?: (?:the|a|our))?(?: (?:plan|approach|following|rules?))?|the (?:plan|rule|decision) is|(?:one |a |the |(?:our |one )?house |new )?(?:rule|policy)(?: (?:for|about|on|to add|to follow)\b[\w\s'-]{1,30})?|going forward|from now on)[\s,:-]*$/i;

/** A sentence's clauses; a clause too short to stand alone ("I'm Sam") stays with the one after it. */
function clauses(sentence: string): string[] {
  const out: string[] = [];
  let carry = '';
  for (const c of sentence.split(CLAUSE)) {
    const joined = carry ? `${carry}, ${c}` : c;
    if (joined.trim().length < MIN_CHARS) carry = joined.trim();
    else {
      out.push(joined);
      carry = '';
    }
  }
  if (carry) out.push(carry);
  return out;
}

/** A sentence's pieces between dashes; a piece of three words or less ("— Fernbrook Natives —") stays with the one before. */
function dashPieces(sentence: string): string[] {
  const out: string[] = [];
  for (const piece of sentence.split(/\s+(?:-{1,2}|—|–)\s+/)) {
    if (out.length > 0 && piece.split(/\s+/).length <= 3) out[out.length - 1] += ` — ${piece}`;
    else out.push(piece);
  }
  return out;
}

/** A request to put a fact in the text being written ("also add that Dev Patel is our assistant coach now"): the fact is the user's. */
const ADD_THAT = /^(?:(?:also|and|oh and|ok|pls|please|can you|could you)[\s,]+)*(?:add|put|mention|include)(?: (?:a line|a note|in|on|to (?:the |that |my |our )?[\w'-]+))? that\s+(?=\S+\s+\S+\s+\S)/i;

/** A line that introduces a list worth keeping. */
const LIST_INTRO = /\b(?:outcomes?|decisions?|decided|agreed|details|notes?|save|remember|for later|facts|rules|summary|context|plan|schedule|setup|info|things|keep in mind)\b/i;
/** A piece of the user's text; `listed`: an item of a list the user introduced as worth keeping. */
export interface UserSentence {
  readonly text: string;
  readonly listed: boolean;
  /** Said after a dash in the same sentence ("we never ride when it's wet — mud means stay home"). */
  readonly afterDash?: boolean;
  /** A clause after the first of its sentence ("i never book before 9am, i take fridays off"). */
  readonly afterClause?: boolean;
}

/** The user's sentences: injected blocks removed, secret values masked line by line (maskLine), split at sentence ends and line breaks. */
export function userSentences(text: string, maxChars: number): UserSentence[] {
  // What the host put around the words goes first, so a long metadata block does not use up maxChars.
  const own = stripInjected(text).slice(0, maxChars).replace(/```[\s\S]*?```/g, ' ');
  const out: UserSentence[] = [];
  let listing = false;
  for (const line of own.split(/\n+/).map(maskLine)) {
    // A list under a line that introduces what to keep ("meeting outcomes:", "save this:"): each item is kept
    // as it stands (`listed`: the rules take it as a statement); the intro line itself is not.
    const bullet = /^\s*(?:[-*•]|\d{1,2}[.)])\s+/.test(line);
    // A line of code or a query pasted without a fence is the task's material, as a fenced block is.
    if (looksLikeCode(line)) continue;
    if (!bullet) listing = /:\s*$/.test(line) && LIST_INTRO.test(line);
    if (listing && !bullet) continue;
    if (listing && bullet) {
      const item = line.replace(/^\s*(?:[-*•]|\d{1,2}[.)])\s+/, '').trim();
      if (item.length >= 4) out.push({ text: item, listed: true });
      continue;
    }
    // A sentence ends at . ! ? ; followed by a space (so "db2.internal", "v1.2" and "e.g." stay whole).
    const pieces = line
      .replace(/^\s*(?:[-*•]|\d{1,2}[.)])\s+/, '')
      .split(/(?<=[.!?;])(?<!\b(?:dr|mr|mrs|ms|prof|st|vs|etc|e\.g|i\.e|approx|no)\.)\s+(?=[A-Za-z"'])/i)
      .flatMap((sentence) => dashPieces(sentence).flatMap((piece, d) => clauses(piece).map((text, c) => ({ text, afterDash: d > 0 && c === 0, afterClause: c > 0 }))));
    // An opener cut off by a colon or comma ("note: ...", "sorry, I meant ...") goes back on its clause.
    const sentences: { text: string; afterDash: boolean; afterClause: boolean }[] = [];
    for (const p of pieces) {
      const prev = sentences[sentences.length - 1];
      if (prev !== undefined && (OPENER.test(prev.text.trim()) || LEADS_IN.test(prev.text.trim()))) prev.text = `${prev.text.trim()} ${p.text}`;
      else sentences.push(p);
    }
    for (const { text, afterDash, afterClause } of sentences) {
      const s = text.trim().replace(ADD_THAT, '');
      if (s.length < MIN_CHARS) continue;
      // A sentence that leans on the one before ("its not on db1 anymore") is read with it, unless that one is of
      // this moment only: "mom has a neuro appt this thursday. she's at cedar crest" says where she lives.
      const last = out[out.length - 1];
      if (LEANS.test(s.replace(FILLER, '')) && last && !onlyNow(last.text)) out[out.length - 1] = { ...last, text: `${last.text} ${s}` };
      else out.push({ text: s, listed: false, afterDash, afterClause });
    }
  }
  return out;
}

/** A piece of code in a word: a call, a brace, a semicolon, an operator, a $variable. */
const CODE_TOKEN = /[{};=<>|^]|::|->|:=|\w\(|\$[A-Za-z_]/;
/** A query as written: "select ... from", "update ... set", "delete from ...". */
const SQL = /^\s*(?:select\b.+\bfrom|insert into|update\s+\S+\s+set|delete from|with\s+\w+\s+as\s*\()\b/i;

/** A line that is code rather than prose: a query, or a third of its words pieces of code. */
export function looksLikeCode(line: string): boolean {
  const words = line.trim().split(/\s+/);
  return SQL.test(line) || (words.length > 0 && words.filter((w) => CODE_TOKEN.test(w)).length / words.length >= 1 / 3);
}
