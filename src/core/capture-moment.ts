/**
 * Said of the moment (issue 19): trouble reported now ("keeps OOMing") and what holds only today, this week
 * or this once. A sentence of the moment is the task at hand, not a fact to keep, unless something in it
 * lasts ("always", "from now on", an address).
 */
/** A report of something going wrong now ("lag is climbing", "keeps OOMing", "can't reach db"): the task, not a lasting fact. */
export const TROUBLE =
  /\b(?:keeps?|kept) \w+ing\b|\b(?:is|are|was|were|been|started|starts|'s|'re) (?:throwing|climbing|growing|spiking|failing|erroring|crashing|timing out|paging|hanging|leaking|stuck)\b|\b(?:is|are|went|'s|'re) down\b|\b(?:can'?t|cant|won'?t|wont|doesn'?t|doesnt|isn'?t|isnt|aren'?t|not) (?:reach|connect|load|start|build|compile|boot|install|sync|launch|work|working|decrypt|showing|getting|loading)\b|\b(?:stopped working|errors?\b|failing|broken|crash(?:ed|es|ing)?|oomkilled|500s|piling up|backing up|backed up|(?:is|are|went|turned) red|swinging|stall(?:ed|ing)|lagging|throws? (?:an? )?(?:[\w-]+ )?(?:error|exception)|throws? ['"])/i;
/** Said of this moment only: "tonight's featured act is ...", "just had a ruff at the pond", "pitched it eight days ago", "this saturday i have the castle out" (not "starting this week"). */
const ONE_OFF = /\b(?:today|tonight|tomorrow|tmrw|yesterday|this (?:morning|afternoon|evening)|last night|just (?:had|got|saw|finished)|right now|at the moment|(?:days?|weeks?|hours?) ago|since (?:yesterday|this \w+|last (?:night|week)|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|just (?:this|that) once|(?:for|on) (?:mon|tues|wednes|thurs|fri|satur|sun)day specifically|for this (?:one|job|order|quote|project|event|trip|time|client|batch)|(?:this|next) (?:week|weekend|month|year|session|gig|show|time|(?:mon|tues|wednes|thurs|fri|satur|sun)day) only|only (?:for )?this (?:week|weekend|month|year|session|gig|show|time)|for this \w+ only|for the next (?:few|couple(?: of)?|\d+) (?:days|weeks)|(?<!(?:starting|from|as of|beginning|effective) )this (?:week|(?:mon|tues|wednes|thurs|fri|satur|sun)day|sat|sun|fri))\b|(?<!(?:'d|would|i|we|you) )like ~?\d/i;
/** What makes a sentence outlast the moment it reports ("people keep asking, so it's $45 now", "it runs on 192.168.1.40"). */
const LASTING = /\b(?:always|never|every(?! (?:~?\d+ ?|few |couple (?:of )?)(?:sec|min|hour|hr)s?\b)|everything|completely|going forward|from now on|permanent(?:ly)?|(?<!right )now|anymore|runs on|lives on|is on|all (?:my|our|the))\b|\d+\.\d+\.\d+\.\d+/i;

/** Trouble reported now, or something of this moment only, and nothing in the sentence that lasts: no fact of the named-fact rules, nor a plain one. */
export function onlyNow(body: string): boolean {
  return (TROUBLE.test(body) || ONE_OFF.test(body)) && !LASTING.test(body);
}
