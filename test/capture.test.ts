/**
 * Auto-capture (src/core/capture.ts rules, src/memory/capture.ts decisions) on a real store: what is kept
 * and how, what never is (secrets, tool output, injected memory, questions and hedges), memory already
 * known strengthened instead of stored twice, corrections replacing the fact they correct; the agent tool
 * and the configuration.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { captureSentence, plainFact } from '../src/core/capture.js';
import { looksLikeCode, userSentences } from '../src/core/capture-sentences.js';
import { captureFacts } from '../src/core/capture-keep.js';
import { withoutSecrets } from '../src/core/capture-secrets.js';
import { replacement } from '../src/memory/capture-changes.js';
import { resolveConfig } from '../src/config/resolve.js';
import { startSemantic } from '../src/main.js';
import { MemoryError } from '../src/core/errors.js';
import { callAgentTool } from '../src/memory/agent-tools.js';
import type { MemoryService } from '../src/memory/service.js';
import { openService, tempHome, type TestHome } from './helpers.js';

const AGENT = { role: 'specialist' as const, agentId: 'agent-a', sessionId: 'sess-1' };
const user = (content: string) => ({ role: 'user', content });

describe('capture rules', () => {
  it('each rule fires on its phrasing and sets category, importance and decay', () => {
    const cases: [string, string | null, string | null][] = [
      ['remember that the staging DB is on db2.internal', 'explicit', 'The staging DB is on db2.internal'],
      ['note: payments stay on node 18', 'explicit', 'Payments stay on node 18'],
      ["we're going with Postgres 16 for the ledger", 'decision', "We're going with Postgres 16 for the ledger"],
      ['from now on use pnpm everywhere', 'decision', 'From now on use pnpm everywhere'],
      ["i'd rather you be blunt", 'preference', "I'd rather you be blunt"],
      ['I hate trailing whitespace', 'preference', 'I hate trailing whitespace'],
      ['actually the build box is ci-04', 'correction', 'The build box is ci-04'],
      ['npm is no longer used here', 'correction', 'Npm is no longer used here'],
      ['the backend isnt laravel anymore', 'correction', 'The backend isnt laravel anymore'],
      ['we expanded the yb cluster to 5 nodes', 'correction', 'We expanded the yb cluster to 5 nodes'],
      ['we finally upgraded to zod 4 last week', 'correction', 'We finally upgraded to zod 4 last week'],
      ["dad's pulmonologist bumped him to 3 liters at rest", 'correction', "Dad's pulmonologist bumped him to 3 liters at rest"],
      ['Priya is the on-call lead this sprint', 'named-fact', 'Priya is the on-call lead this sprint'],
      ['our CI runs on ci-03.internal', 'named-fact', 'Our CI runs on ci-03.internal'],
      ['no emojis in show notes pls, it looks cheap', 'preference', 'No emojis in show notes pls, it looks cheap'],
      ['keep menu descriptions under 10 words each', 'preference', 'Keep menu descriptions under 10 words each'],
      ['tabs not spaces.', 'preference', 'Tabs not spaces.'],
      ['write me a script to dump the staging db', null, null],
      ['keep it short', null, null],
      ['use bullet points in this email', null, null],
      ['can you check the logs?', null, null],
      ['maybe we should use redis', null, null],
      ['if we used kafka, would it scale', null, null],
      ['the weather is nice', null, null],
      // Trouble reported now is the task; with something lasting in it, the fact stays.
      ['the wildcard cert renewal for the marlowlabs.dev domain is failing', null, null],
      ['orders-consumer lag is climbing, 48k on partition 3', null, null],
      ['our basic tune is $45 now, people keep asking', 'correction', 'Our basic tune is $45 now, people keep asking'],
      // How long since something happened is of the moment, not a changed state.
      ['had the vasectomy friday, day 3 now, swelling is a bit down', null, null],
      // "She's ok ..." is a clause, not the subject of a fact.
      ["she's ok they induced vomiting and are checking her blood sugar overnight", null, null],
      // A routine, who or what is the user's, a standing rule: facts with nothing else specific in them.
      ['we close the shop every sunday', 'named-fact', 'We close the shop every sunday'],
      ['trash pickup is thursday mornings', 'named-fact', 'Trash pickup is thursday mornings'],
      ['our volunteer coordinator is beverly hanlon', 'named-fact', 'Our volunteer coordinator is beverly hanlon'],
      // Someone's lasting likes and limits.
      ["my kid's allergic to bees", 'named-fact', "My kid's allergic to bees"],
      ['carla hates long emails', 'named-fact', 'Carla hates long emails'],
      ['it hates me lol', null, null],
      ["cc deshawn on anything customer facing, he's my office manager", 'named-fact', "Cc deshawn on anything customer facing, he's my office manager"],
      ['all internal apps must use okta sso, no local accounts', 'named-fact', 'All internal apps must use okta sso, no local accounts'],
      ['the test apk must be stale', null, null],
      // Said of this moment only, with nothing lasting in it.
      ["tonight's featured act is Marcus Bell doing 15 min at the end", null, null],
      ['the walk-in cooler is at 41F right now', null, null],
      ['Marcus Bell is our open mic host now, he took over yesterday', 'correction', 'Marcus Bell is our open mic host now, he took over yesterday'],
      ['my laptop is so slow today', null, null],
      ['nitrite is 0 fwiw, ammonia like 0.25', null, null],
      ["i'd like 2 copies of the lease on file", null, null],
      ['can you make a weekly plan for me', null, null],
      // Where a credential lives, with no value in the sentence.
      ["I moved the key into a .env file that's gitignored", 'named-fact', "I moved the key into a .env file that's gitignored"],
      ['normally those live in the GitLab CI/CD variables for the infra repo', 'named-fact', 'Normally those live in the GitLab CI/CD variables for the infra repo'],
      ['store it as the DEPLOY_KEY repository secret', 'named-fact', 'Store it as the DEPLOY_KEY repository secret'],
      ['the spare key goes under the mat', null, null],
      // The user's own role or pursuit, with something it names; someone of theirs by name.
      ['I direct the marching band at Westfield High.', 'named-fact', 'I direct the marching band at Westfield High.'],
      ["I'm a K9 handler on the Chaffee County search and rescue team", 'named-fact', "I'm a K9 handler on the Chaffee County search and rescue team"],
      ["I'm designing a worker-placement game called Brinewater", 'named-fact', "I'm designing a worker-placement game called Brinewater"],
      ["I'm a bit lost with the Gradle setup", null, null],
      ['I keep it in the Hallway closet', null, null],
      ['I coach the under-tens on weekends', null, null],
      ['My instructor Dana wants me to nail short-field landings', 'named-fact', 'My instructor Dana wants me to nail short-field landings'],
      ['my instructor wants me to nail short-field landings', null, null],
      // What the user is on, by name or number; a rule announced as one; a standing instruction said politely.
      ["i'm on rizatriptan 10mg now", 'named-fact', "I'm on rizatriptan 10mg now"],
      ["we're on Django 4.2", 'named-fact', "We're on Django 4.2"],
      ["I'm on call Saturday", null, null],
      ["i'm on it", null, null],
      ['one rule to add right at the top nobody resets a room until the group has left the lobby', 'decision', 'One rule to add right at the top nobody resets a room until the group has left the lobby'],
      ['house rule: shoes off at the door', 'decision', 'House rule: shoes off at the door'],
      ['a rule of thumb is to water at dawn', null, null],
      ['Please keep my handouts at a 6th grade reading level with 16pt font', 'preference', 'Please keep my handouts at a 6th grade reading level with 16pt font'],
      ['please keep it under 200 words', null, null],
      // A state said to hold now, with a value in it.
      ['its release/2.15 now, 2.14 got frozen friday', 'correction', 'Its release/2.15 now, 2.14 got frozen friday'],
      ["we're with Harbor Tax Group now", 'correction', "We're with Harbor Tax Group now"],
      ['it works now', null, null],
      ['the Denver office is closed right now', null, null],
      // A state since a day this week, an incident's own rhythm, this task's figures, others' news, a hand-over.
      ["Water's been off on D dock since tuesday, plumber's coming thursday", null, null],
      ['Checkout latency monitor has been flapping every ~10 min since this morning', null, null],
      ['Legal id has to hit at the top of every hour, no exceptions', 'named-fact', 'Legal id has to hit at the top of every hour, no exceptions'],
      ['Tent is $1,850 for this one, sidewalls +$240.', null, null],
      ['Saw a tiktok of a couple in vermont who quit corporate', null, null],
      ["Here's the HEC token we set up for the collector", null, null],
      // An error report, a question without its mark, a command, a one-time date, one day's plan.
      ["My emacs throws 'Symbol's value as variable is void' on startup", null, null],
      ['If the towplane is the pawnee instead of the super cub does that change anything', null, null],
      ["Deactivate all of them except mkhan she's on leave til march", null, null],
      ['I also have a follow-up x-ray on the 14th, just that once', null, null],
      ['For thursday specifically 3 kids are out for a birthday party so plan for 8.', null, null],
      // A request to keep something, or to do something from now on, is a fact; a reminder of a task is not.
      ['oh and can you remind me that i always batch the night before on wednesdays', 'explicit', 'I always batch the night before on wednesdays'],
      ['can you format drills as tables from now on', 'decision', 'Can you format drills as tables from now on'],
      ['can you remind me to call the vet', null, null],
      // How long, not a change.
      ['Still dancing with Harold, 6 years now.', null, null],
    ];
    for (const [sentence, rule, text] of cases) {
      const f = captureSentence(sentence);
      expect({ sentence, rule: f?.rule ?? null, text: f?.text ?? null }).toEqual({ sentence, rule, text });
      // Nor are these plain facts the classifier could keep as written.
      if (rule === null && /since|every ~|for this one|^Saw a|^Here's|throws|change anything|^Deactivate|that once|specifically/.test(sentence)) expect(plainFact({ text: sentence, listed: false })).toBeNull();
    }
    expect(captureSentence('we decided to ship on fridays')).toMatchObject({ category: 'decision', importance: 0.7, decayClass: 'stable', confidence: 0.85 });
    expect(captureSentence('Priya is the on-call lead this sprint')).toMatchObject({ decayClass: 'volatile', entity: 'priya' });
  });

  it('reads only user messages, without injected blocks, code blocks or questions; never keeps a secret value', () => {
    const facts = captureFacts(
      [
        user('<relevant-memories>\n- [f_1] remember that the old key is in the vault\n</relevant-memories>\nfyi the deploy key for prod is ghp_abcdefghijklmnopqrstuvwxyz0123456789AB and the db password is Hunter2!winter'),
        { role: 'assistant', content: 'remember that I am the assistant' },
        { role: 'tool', content: 'remember that the prod db is db9.internal' },
        user('```\nremember that this is code\n```\nwhat is the port?'),
      ],
      { maxChars: 5000 },
    );
    expect(facts).toHaveLength(1);
    expect(facts[0]?.text).toBe('The deploy key for prod is [not stored: ask the user] and the db password is [not stored: ask the user]');
    expect(facts[0]?.redacted).toBe(true);
    expect(JSON.stringify(facts)).not.toMatch(/ghp_|Hunter2|old key|assistant|db9|code/);
  });

  it('a question asked without a question mark at the end of a sentence is not part of the fact before it', () => {
    const texts = userSentences('doc switched me off latanoprost, im on rhopressa now, still once at night. it stings more, is that normal', 5000).map((x) => x.text);
    expect(texts.at(-1)).toBe('is that normal');
    expect(userSentences('my coworker has a q1 pro, will the same keymap.c work for him', 5000).map((x) => x.text)).toEqual(['my coworker has a q1 pro', 'will the same keymap.c work for him']);
    // A name and "hates" start a clause of their own.
    expect(userSentences('keep it short, carla hates long emails', 5000).map((x) => x.text)).toEqual(['keep it short', 'carla hates long emails']);
    expect(captureSentence('is that normal')).toBeNull();
    // With the question mark, the whole sentence is the question, as before.
    expect(userSentences('settings has the new db url, is that right?', 5000).map((x) => x.text)).toEqual(['settings has the new db url, is that right?']);
  });

  it('a sentence that leans on one of this moment only stands alone; this week and a day of it are of the moment', () => {
    const texts = (t: string) => userSentences(t, 5000).map((x) => x.text);
    expect(texts("mom has a neuro appt this thursday at 10. she's at cedar crest assisted living")).toEqual(['mom has a neuro appt this thursday at 10.', "she's at cedar crest assisted living"]);
    // Leaning on a sentence that lasts, it is read with it, as before.
    expect(texts("the api gateway is on gw2.internal. it's behind haproxy")).toEqual(["the api gateway is on gw2.internal. it's behind haproxy"]);
    for (const sentence of ['this week i only have mon wed fri free tho', 'this saturday i have the castle going to a party in Holly Springs', 'Dump is charging $68/ton this week w the holiday surcharge'])
      expect({ sentence, rule: captureSentence(sentence), plain: plainFact({ text: sentence, listed: false }) }).toEqual({ sentence, rule: null, plain: null });
    // From this week on is a change that lasts.
    expect(captureSentence('starting this week our standup is at 9:30 on zoom')?.text).toBe('Starting this week our standup is at 9:30 on zoom');
  });

  it('a preference given as the reason for a request keeps the request: what to do instead', () => {
    const texts = (content: string) => captureFacts([{ role: 'user', content }], { maxChars: 5000 }).map((f) => f.text);
    expect(texts('ok and pls use metric for everything, i never think in fahrenheit')).toEqual(['Use metric for everything, i never think in fahrenheit']);
    expect(texts('good but cut the line offering a sample, i never do unpaid test pieces')).toEqual(['Cut the line offering a sample, i never do unpaid test pieces']);
    // Not a question, a request about this one draft, or one of this moment.
    expect(texts('can you shorten this caption, i hate long captions')).toEqual(['I hate long captions']);
    expect(texts('is the build green, i hate waiting')).toEqual(['I hate waiting']);
    // A preference said on its own stays as it is.
    expect(texts('i never think in fahrenheit')).toEqual(['I never think in fahrenheit']);
  });

  it('keeps the rest of a sentence after a comma with the clause kept, unless it asks for something', () => {
    const facts = (t: string) => captureFacts([user(t)], { maxChars: 5000 }).map((f) => [f.text, (f.parts ?? []).map((p) => p.text)]);
    // Cut at ", the mornings ..." (a new subject), and put back: the reason stays with the rule; each part keeps its own capital.
    expect(facts('i never book anything before 9am, the mornings are for the kids')).toEqual([['I never book anything before 9am, the mornings are for the kids', ['I never book anything before 9am', 'The mornings are for the kids']]]);
    expect(facts('I always sign off emails with my first name, can you draft one to Ana')).toEqual([['I always sign off emails with my first name', []]]);
    // Clauses of one sentence that rules of different kinds keep are one fact too: what a person says in one breath.
    expect(facts('fyi all my monitoring alerts go to the #homelab-alerts channel on discord not email, i hate alert emails')).toEqual([
      ['All my monitoring alerts go to the #homelab-alerts channel on discord not email, i hate alert emails', ['All my monitoring alerts go to the #homelab-alerts channel on discord not email', 'I hate alert emails']],
    ]);
    // Sentences of different kinds stay apart.
    expect(facts('remember that staging is on db2. I prefer tabs').map(([t]) => t)).toEqual(['Staging is on db2.', 'I prefer tabs']);
  });

  it('reads "w/" as shorthand and "apps-*" as a pattern in a sentence about a credential, and still masks the password after a name', () => {
    const texts = (t: string) => captureFacts([user(t)], { maxChars: 5000 }).map((f) => f.text);
    expect(texts('i always want wifi thermostats that work w/ home assistant')).toEqual(['I always want wifi thermostats that work w/ home assistant']);
    expect(texts('we decided all new workloads go in the apps-* namespaces, the creds are in the vault')).toEqual(['We decided all new workloads go in the apps-* namespaces, the creds are in the vault']);
    expect(JSON.stringify(texts('remember the router login w/ admin / hunter22'))).not.toContain('hunter22');
  });

  it('never keeps a one-case token handed over before a colon, whichever clause it lands in', () => {
    // The colon cuts the sentence: the clause with the value does not say "PAT" any more.
    const pat = 'k4dq2x7mzv3rjw6tplb5hyn2cqa7fse4ugo6ixk3wlm5tpza7bq2';
    const facts = captureFacts([user(`registration keeps failing with a 401. here's the PAT I'm using: ${pat} scope is Agent Pools read & manage`)], { maxChars: 5000 });
    expect(JSON.stringify(facts)).not.toContain(pat.slice(0, 12));
  });

  it('splits a sentence where a new clause starts, not at a name put after a comma', () => {
    const texts = (t: string) => userSentences(t, 5000).map((x) => x.text);
    // "the green hornets" names the team: no verb follows, so it stays with what it names.
    expect(texts("i coach my son's u10 team, the green hornets, rec league, 11 kids.")).toEqual(["i coach my son's u10 team, the green hornets, rec league, 11 kids."]);
    // "the staging db is ..." is a clause of its own.
    expect(texts('we ship on fridays, the staging db is on db2.internal')).toEqual(['we ship on fridays', 'the staging db is on db2.internal']);
  });

  it('never keeps code pasted without a fence or a request phrased as a need; keeps the fact said around them', () => {
    const facts = captureFacts(
      [
        user(
          [
            'need a letter to the tenant at 212 harlow st, rent is 9 days late.',
            'select c.id, count(o.id) from customers c join orders o on o.customer_id = c.id where o.total > 100',
            'fn bump(&mut self, name: &str) {',
            '    if let Some(e) = self.entries.get(name) {',
            'DATABASE_HOST=db',
            'our billing db is pg-billing-2.internal',
          ].join('\n'),
        ),
      ],
      { maxChars: 5000 },
    );
    expect(facts.map((f) => f.text)).toEqual(['Our billing db is pg-billing-2.internal']);
    // A statement before a request in the same sentence is read on its own.
    const stated = captureFacts([user('we close the books by the 10th every month so can you fix this before friday? my partner Lou does all the listings on AbeBooks, so add a line for him')], { maxChars: 5000 });
    expect(stated.map((f) => f.text)).toEqual(['We close the books by the 10th every month', 'My partner Lou does all the listings on AbeBooks']);
    // A fact the user asks to have written in is the user's fact.
    const added = captureFacts([user('also add that Dev Patel is our assistant coach now. add that to the newsletter please')], { maxChars: 5000 });
    expect(added.map((f) => f.text)).toEqual(['Dev Patel is our assistant coach now.']);
    // What a kept sentence goes on to say after a dash stays with it; a dash's short aside stays with what it names.
    const dashed = captureFacts([user("going forward we don't run helm by hand against staging — everything goes through argo. can you write the runbook?")], { maxChars: 5000 });
    expect(dashed.map((f) => f.text)).toEqual(["Going forward we don't run helm by hand against staging — everything goes through argo."]);
    const aside = captureFacts([user("we're going with Hetzner — the Falkenstein region — for the new cluster — can you size it?")], { maxChars: 5000 });
    expect(aside.map((f) => f.text)).toEqual(["We're going with Hetzner — the Falkenstein region — for the new cluster"]);
    // Prose that names a piece of code is still prose.
    expect(looksLikeCode('going forward always use form requests for validation, not inline $request->validate')).toBe(false);
    expect(looksLikeCode('update orders set status = 1 where id = 7')).toBe(true);
  });
});

describe('secret values never kept, whatever their shape', () => {
  it('masks passwords after a slash or a password word, and codes wherever the code word stands; keeps paths, times and vault pointers', () => {
    const cases: [string, string][] = [
      ['Green room wifi at the last place was BlueNote_Backstage / midnightsax88', 'Green room wifi at the last place was BlueNote_Backstage / [not stored: ask the user]'],
      ['the pending one, the combo on the backup box on the side gate is 0619', 'The pending one, the combo on the backup box on the side gate is [not stored: ask the user]'],
      ['the wifi password is sunflower22 btw', 'The wifi password is [not stored: ask the user]'],
      // What a credential was handed over for is this task's business, not part of the fact.
      ['The router admin login is admin / Hunter2!x, just so you can walk me through renaming the guest network', 'The router admin login is admin / [not stored: ask the user]'],
      ['the splunk hec token for the lab is 8f3k2j9d-22kd-ssk2 if you need to test the ingestion', 'The splunk hec token for the lab is [not stored: ask the user]'],
      ['wifi password is Blue42!dog and the router is in the closet', 'Wifi password is [not stored: ask the user] and the router is in the closet'],
      ['the door code changed to 55123', 'The door code changed to [not stored: ask the user]'],
      ['Lift shack box is 7-3-1-9 for the new hires', 'Lift shack box is [not stored: ask the user]'],
      ['the key safe is 2 9 0 4', 'The key safe is [not stored: ask the user]'],
      ['we meet on 2024-05-01 in room 3', 'We meet on 2024-05-01 in room 3'],
      ['the code is in src/app and the api key is in 1password', 'The code is in src/app and the api key is in 1password'],
      ['standup is at 9:30 / 10:00 on fridays', 'Standup is at 9:30 / 10:00 on fridays'],
      ['my password is in bitwarden', 'My password is in bitwarden'],
      // A path's first folder after a slash is not the secret of "name / password".
      ["the token's stored in /etc/caddy/caddy.env and the unit loads it", "The token's stored in /etc/caddy/caddy.env and the unit loads it"],
      ['integration keys live in AWS Secrets Manager under /oncall/pagerduty/', 'Integration keys live in AWS Secrets Manager under /oncall/pagerduty/'],
      // After "name / ", the whole password goes, slashes and all.
      ['guest wifi is HomeNet / sunny/day', 'Guest wifi is HomeNet / [not stored: ask the user]'],
      // A number right after its code word, a dial combination.
      ['Alarm code 9914, set it last', 'Alarm code [not stored: ask the user], set it last'],
      ['lock the drug cabinet (pin 0932) and set alarm #4417* at the back door', 'Lock the drug cabinet (pin [not stored: ask the user]) and set alarm [not stored: ask the user] at the back door'],
      ['Safe combo for their office safe 24-61-13', 'Safe combo for their office safe [not stored: ask the user]'],
      ['new bitting 35274 on all six cylinders', 'New bitting [not stored: ask the user] on all six cylinders'],
      ['the code freeze starts at 1700 on the 14th', 'The code freeze starts at 1700 on the 14th'],
      // A slug with a made-up part is a token, not a name ("inv-" and 32 hex digits); a host's slug is a name.
      ['Token is inv-7f3a9c21e8b04d6f95a2c7e1b8d30f46 and the server is parts.kestrelworks.net', 'Token is [not stored: ask the user] and the server is parts.kestrelworks.net'],
      ['the token for apps-prod-01 is in vault', 'The token for apps-prod-01 is in vault'],
      ["i know about the token, i'm sticking with powerlevel10k", "I know about the token, i'm sticking with powerlevel10k"],
      // "pin" as a verb is no code word; as a noun it still is.
      ['our recordings go back to 2011 and i want to pin everything to pinata', 'Our recordings go back to 2011 and i want to pin everything to pinata'],
      ['the pin to the side gate is 4412', 'The pin to the side gate is [not stored: ask the user]'],
      // Where a password is, said right after the word, is no password: the pointer is kept whole.
      ['the real password lives in vault under secret/debezium/orders', 'The real password lives in vault under secret/debezium/orders'],
      ['the admin password is stored in bitwarden', 'The admin password is stored in bitwarden'],
      ['the wifi pass is Tr0ub4dor', 'The wifi pass is [not stored: ask the user]'],
      // After "it's" as after "is".
      ["I keep forgetting the lot gate code — it's 4471#", "I keep forgetting the lot gate code — it's [not stored: ask the user]"],
      // A URL that is its own key (a UUID or a made-up part in its path), whatever the sentence says; other URLs stay.
      ['our uptime check pings https://hc-ping.com/5f2c9a1e-7b3d-4e8a-9c61-2d4f8b0e3a77 after the nightly dump', 'Our uptime check pings https://hc-ping.com/[not stored: ask the user] after the nightly dump'],
      ['the docs site is https://example.com/docs/getting-started-guide now', 'The docs site is https://example.com/docs/getting-started-guide now'],
      // An SNMP community string is a password.
      ['snmp community for librenms is r3adOnly-7731, v2c for now', 'Snmp community for librenms is [not stored: ask the user], v2c for now'],
      // Words and digits joined in mixed case are a generated password in a credential's line; a host's slug stays.
      ['the mysql root pw is Dolphin-7781-Sky, the box is web-01', 'The mysql root pw is [not stored: ask the user], the box is web-01'],
      // An address with a scheme is where something listens, not a value, in a credential's line too (its user:password is masked apart).
      ['each pc publishes on tcp://*:5556, the curve secret key is in vault', 'Each pc publishes on tcp://*:5556, the curve secret key is in vault'],
      // Some services' keys are digits only: a number given as a key is masked; a number said near the word is not.
      ['cloud name is mossgrove-goods, api key 584913276402118, it all lives in the .env', 'Cloud name is mossgrove-goods, api key [not stored: ask the user], it all lives in the .env'],
      ['we rotate the deploy token every 90 days', 'We rotate the deploy token every 90 days'],
      // "basic" and "bearer" before a word are no Authorization header.
      ['I never want basic economy on long flights', 'I never want basic economy on long flights'],
    ];
    // A URL whose user part is its key (an error tracker's DSN) is masked like one in its path; a user name stays.
    expect(withoutSecrets('Dsn is https://7c2e9f04b1a84d6e93f5a0c8d2b71e46@errors.kiln.dev/4 what goes in settings.py')).toBe('Dsn is https://[redacted]@errors.kiln.dev/4 what goes in settings.py');
    expect(withoutSecrets('the admin panel is https://maintenance_user@admin.example.com')).toBe('the admin panel is https://maintenance_user@admin.example.com');
    expect(JSON.stringify(captureFacts([user('dsn is https://7c2e9f04b1a84d6e93f5a0c8d2b71e46@errors.kiln.dev/4 what goes in settings.py')], { maxChars: 5000 }))).not.toContain('7c2e9f04b1a84d6e93f5a0c8d2b71e46');
    // Plural credential words, and a key made of a short prefix and hex.
    const keys = captureFacts([user('Keys are ck_4e7a19c0b2d84f6e9a31c5d7f0b8e2a6c9d1f3b5 / cs_9b2e6f1a4c8d07e3b5a9f2c6d1e8b4a7f0c3e5d9 (read/write). Our store runs on WooCommerce 8.9.')], { maxChars: 5000 });
    expect(JSON.stringify(keys)).not.toMatch(/4e7a19c0|9b2e6f1a/);
    for (const [sentence, text] of cases) expect({ sentence, text: (captureSentence(sentence) ?? plainFact({ text: sentence, listed: false }))?.text }).toEqual({ sentence, text });
    // The word that makes a value a credential may stand in another clause than the value.
    const facts = captureFacts([user('also can u add the guest wifi at the bottom of the board: Brewhaus-Guest / hopheads2024. we open at noon every sunday')], { maxChars: 5000 });
    expect(JSON.stringify(facts)).not.toContain('hopheads2024');
    expect(userSentences('add the guest wifi at the bottom: Brewhaus-Guest / hopheads2024', 5000).map((x) => x.text).join(' ')).not.toContain('hopheads2024');
    // A model number named as a thing stays in a line about a key; where a value is given, it is masked.
    const line = userSentences("ya i'll regenerate the key. the NAS is a synology DS920+ and rclone runs there. the wifi key is XJ4492, router login: admin XJ4493. the password is the AB1235", 5000).map((x) => x.text).join(' ');
    expect(line).toContain('synology DS920+');
    for (const value of ['XJ4492', 'XJ4493', 'AB1235']) expect(line).not.toContain(value);
    // A value in quotes is a value; a number with a unit word in a credential's line is not.
    const quoted = userSentences("the readonly user signs in with 'Kq7$tomb-Rf3' for now", 5000).map((x) => x.text).join(' ');
    expect(quoted).toContain('[redacted]');
    expect(quoted).not.toContain('Kq7$tomb-Rf3');
    // The word that makes the line a credential's is in another sentence of it.
    const root = userSentences('heres the root pw, Tq8#vLm2!Rx. the mysql root is Dolphin-7781-Sky too, both are in our bitwarden org', 5000).map((x) => x.text).join(' ');
    expect(root).not.toMatch(/Tq8#vLm2|Dolphin-7781-Sky/);
    expect(userSentences('we are going with the 15-year fixed, the portal login is dkowal88 / Refi$2024harbor', 5000).map((x) => x.text).join(' ')).toMatch(/15-year fixed.*\[redacted\]$/);
  });

  it('keeps nothing the user asks not to keep, and nothing that is a question, a request or a hedge, even past the rules', () => {
    for (const sentence of ["the lockbox code is 7719 but don't keep that anywhere", 'the overdue list this week is the tile saw and two pipe clamps, dont need to remember those', 'run the eval script on the latest checkpoint', 'maybe we move the office to Leeds next year', 'is the build green?', 'I just LOVE waiting for CI 🙃', 'the linen sets are $64 this week only for the launch', 'for this gig only we have a fiddler joining', 'theos got a knee injury for the next few weeks', 'if i use the instant pot yogurt button is that the same temp', 'lemon sugar sealant yes or no', 'If i get red lighted on depth for squat can i take the same weight on 2nd attempt', 'for today just add a note that the gate latch on the kiddie coaster is getting replaced this afternoon', "my xmonad.hs won't compile after upgrading to 0.18"])
      expect({ sentence, rule: captureSentence(sentence), plain: plainFact({ text: sentence, listed: false }) }).toEqual({ sentence, rule: null, plain: null });
  });
});

describe('capture into the store', () => {
  let home: TestHome;
  let svc: MemoryService;
  afterEach(async () => {
    await svc?.close();
    home?.cleanup();
  });

  it('stores what the rules find, as the caller, with source auto-capture; memory it already has is strengthened, not stored again', async () => {
    home = tempHome();
    ({ svc } = openService(home));
    const { decisions: first, by, reason } = await svc.capture([user('remember that the staging DB is on db2.internal. also I prefer tabs over spaces')], AGENT);
    expect({ by, reason }).toEqual({ by: 'rules', reason: 'the embedding model is not running' });
    expect(first.map((d) => d.action)).toEqual(['stored', 'stored']);
    const facts = svc.listFacts({}, AGENT);
    expect(facts.map((f) => [f.source, f.scope.kind, f.scope.agentId, f.category])).toEqual([
      ['auto-capture', 'agent', 'agent-a', 'preference'],
      ['auto-capture', 'agent', 'agent-a', 'technical'],
    ]);
    const { decisions: again } = await svc.capture([user('note: the staging db is on db2.internal')], AGENT);
    expect(again.map((d) => [d.action, d.fact?.id])).toEqual([['strengthened', first[0]?.fact?.id]]);
    expect(svc.listFacts({}, AGENT)).toHaveLength(2);
    expect(svc.getFact(first[0]?.fact?.id as string, AGENT).recallCount).toBe(1);
  });

  it('a correction replaces the fact it corrects (a new version, no conflict)', async () => {
    home = tempHome();
    ({ svc } = openService(home));
    const old = svc.memoryStore({ text: 'The build box is ci-03', category: 'technical', entity: 'build-box' });
    const [d] = (await svc.capture([user('actually the build box is ci-04 now')])).decisions;
    expect(d).toMatchObject({ action: 'superseded', replaces: { id: old.fact.id } });
    const current = svc.listFacts({ entity: 'build-box' });
    expect(current.map((f) => f.text)).toEqual(['The build box is ci-04 now']);
    expect(svc.history(current[0]?.id as string).map((f) => f.text)).toEqual(['The build box is ci-03', 'The build box is ci-04 now']);
    expect(svc.listConflicts()).toHaveLength(0);
  });

  it('a statement of change replaces the fact it names; a restatement strengthens it; a new value is never taken for a restatement', async () => {
    home = tempHome();
    ({ svc } = openService(home));
    const bedtime = svc.memoryStore({ text: "Maya's bedtime is 8pm", entity: 'bedtime' }).fact;
    const closed = svc.memoryStore({ text: 'The restaurant is closed on Mondays', entity: 'restaurant' }).fact;
    const piano = svc.memoryStore({ text: "User's daughter Maya has piano lessons on Wednesdays at 5pm" }).fact;
    const decide = async (text: string) => (await svc.capture([user(text)], undefined, { dryRun: true })).decisions.map((d) => [d.action, d.replaces?.id ?? d.fact?.id ?? null]);
    expect(await decide("We pushed Maya's bedtime to 8:30 now that school starts later")).toEqual([['superseded', bedtime.id]]);
    // Another subject that shares words ("closed on Mondays") replaces nothing.
    expect(await decide('We agreed to close the gallery on Mondays starting in April')).toEqual([['stored', null]]);
    expect(await decide("Maya's piano is still wednesdays at 5pm")).toEqual([['strengthened', piano.id]]);
    expect(await decide("Maya's piano is wednesdays at 6pm")).not.toContainEqual(['strengthened', piano.id]);
    expect(svc.getFact(closed.id).validUntil).toBeNull();
  });

  it('a statement of change that names the old value as gone replaces the fact holding it, and only that one', async () => {
    home = tempHome();
    ({ svc } = openService(home));
    const agency = svc.memoryStore({ text: 'User works through the LinguaBridge interpreting agency' }).fact;
    const hall = svc.memoryStore({ text: 'Rehearsals for the Riverside Players are Tuesdays at the Grange Hall' }).fact;
    const paint = svc.memoryStore({ text: 'The Mustang is being painted Wimbledon White' }).fact;
    const parts = svc.memoryStore({ text: 'User buys Mustang parts from CJ Pony Parts' }).fact;
    const decide = async (text: string) => (await svc.capture([user(text)], undefined, { dryRun: true })).decisions.map((d) => [d.action, d.replaces?.id ?? null]);
    expect(await decide("I'm not with LinguaBridge anymore. Went freelance in January.")).toContainEqual(['superseded', agency.id]);
    expect(await decide("we're no longer at the Grange - rehearsals moved to Thursdays in the Lincoln High black box")).toContainEqual(['superseded', hall.id]);
    const mustang = await decide("We're painting the Mustang Highland Green now instead of white");
    expect(mustang).toContainEqual(['superseded', paint.id]);
    expect(mustang).not.toContainEqual(['superseded', parts.id]);
    // "X now not Y" names Y as gone; a doctor named in passing is not what changed.
    const vet = svc.memoryStore({ text: "User's vet is Dr. Okafor" }).fact;
    const incubator = svc.memoryStore({ text: "User's ostrich incubator is set to 36.4°C" }).fact;
    const heat = await decide("The incubator's at 36.2 now not 36.4, i dropped it last month after dr okafor suggested it.");
    expect(heat).toContainEqual(['superseded', incubator.id]);
    expect(heat).not.toContainEqual(['superseded', vet.id]);
    // "for now" says nothing changed: a clause said "still ... for now" keeps its fact out of the change.
    const gpu = svc.memoryStore({ text: "User trains on a single A100 on the lab cluster 'orca'" }).fact;
    const flax = svc.memoryStore({ text: "User's research code uses JAX with Flax" }).fact;
    const said = "Switched from flax to equinox last month, way less boilerplate. Now i'm getting an UnexpectedTracerError in my train step when i jit it, still on the one a100 on orca for now.";
    expect(replacement({ ...captureSentence('we moved the nas')!, text: said, corrects: false }, [gpu, flax])?.id).toBe(flax.id);
    // "the old one" is not an old value: a dog "7 years old" is not what was switched from.
    const dog = svc.memoryStore({ text: "User's dachshund is Pretzel, 7 years old" }).fact;
    const broker = svc.memoryStore({ text: "User's customs broker is Dana at Harbor Customs" }).fact;
    const switched = "The broker's now carmen at pacifica customs, we switched from the old one in may bc they kept missing ISF deadlines.";
    expect(replacement({ ...captureSentence('we moved the nas')!, text: switched, corrects: false }, [dog, broker])?.id).toBe(broker.id);
    expect(replacement({ ...captureSentence('we moved the nas')!, text: switched, corrects: false }, [dog])).toBeNull();
    // A number with a point is named whole; a saint's "st" is passed over for the name after it.
    const level = svc.memoryStore({ text: 'User prefers Level 2-3 difficulty music for the choir' }).fact;
    const gem = svc.memoryStore({ text: 'The gem supports Ruby 3.0 and newer' }).fact;
    const ruby = { ...captureSentence('we moved the nas')!, text: 'We support ruby 3.1+ only now, dropped 3.0 in the 2.3 release.', corrects: false };
    expect(replacement(ruby, [level, gem])?.id).toBe(gem.id);
    expect(replacement(ruby, [level])).toBeNull();
    const pharmacy = svc.memoryStore({ text: "User's pharmacy is CVS on Main St" }).fact;
    const work = svc.memoryStore({ text: "User works as a nuclear medicine technologist at St. Brendan's Hospital main campus" }).fact;
    const moved = { ...captureSentence('we moved the nas')!, text: "We're not at st brendan's main campus anymore, the whole nuc med dept moved to the riverside outpatient pavilion in march.", corrects: false };
    expect(replacement(moved, [pharmacy, work])?.id).toBe(work.id);
    // "migrated from X" names X; a value's own word may come after it ("$95/hour for labor").
    const cli = svc.memoryStore({ text: 'The CLI uses structopt for argument parsing' }).fact;
    expect(replacement({ ...captureSentence('we moved the nas')!, text: 'We migrated from structopt to clap 4 with the derive api last week btw', corrects: false }, [cli])?.id).toBe(cli.id);
    const labor = svc.memoryStore({ text: "User's plumbing business charges $95/hour for labor" }).fact;
    expect(replacement({ ...captureSentence('we moved the nas')!, text: 'Labor is $110/hr now, went up on the 1st, use that going forward.', corrects: false }, [labor])?.id).toBe(labor.id);
    // Gone, but no current fact holds it: stored as new.
    expect(await decide('We switched from Fastmail to Proton Mail for the band inbox')).toEqual([['stored', null]]);
  });

  it('a restatement is found whatever subject the sentence opens with, inside sentences said in a row, and as the reason for a request', async () => {
    home = tempHome();
    ({ svc } = openService(home));
    const grafana = svc.memoryStore({ text: 'Grafana is at grafana.ops.internal:3000.', entity: 'grafana', category: 'technical' }).fact;
    const venue = svc.memoryStore({ text: 'Alvarez-Chen wedding venue is Fenwick Gardens', entity: 'alvarez-chen wedding' }).fact;
    const allergy = svc.memoryStore({ text: 'Allergic to shellfish', entity: 'allergy' }).fact;
    const decide = async (text: string) => (await svc.capture([user(text)], undefined, { dryRun: true })).decisions.map((d) => [d.action, d.fact?.id ?? null, d.found.text]);
    // The sentence's subject ("reminder that grafana") holds the fact's entity ("grafana").
    expect(await decide('reminder that grafana is at grafana.ops.internal:3000.')).toEqual([['strengthened', grafana.id, 'Reminder that grafana is at grafana.ops.internal:3000.']]);
    // Said in a row: the restated sentence strengthens, the new one is stored.
    expect(await decide('Venue is still Fenwick Gardens for Alvarez-Chen. The florist is Petal Theory, they do the flowers for the arch.')).toEqual([
      ['strengthened', venue.id, 'Venue is still Fenwick Gardens for Alvarez-Chen.'],
      ['stored', null, 'The florist is Petal Theory they do the flowers for the arch.'],
    ]);
    expect(await decide("I'm allergic to shellfish so flag anything that is mostly seafood.")).toEqual([['strengthened', allergy.id, expect.any(String)]]);
    // ... and as the reason a request opens with ("since ..., make sure ...").
    const licence = svc.memoryStore({ text: 'Runs a general contracting company licensed in Oregon (CCB)', entity: 'company' }).fact;
    expect(await decide("Since we're licensed in oregon please always put our CCB number on change orders")).toEqual([['stored', null, expect.any(String)]]);
    expect(await decide("Since we're licensed in oregon make sure the ccb line is on this change order")).toEqual([['strengthened', licence.id, expect.any(String)]]);
    // A known fact followed by a change is not a restatement.
    const rate = svc.memoryStore({ text: 'Initial assessments are 60 minutes', entity: 'assessments' }).fact;
    expect((await decide('Initial assessments stay at 60 min, but follow ups are going to 45 min from april.')).map((d) => d[0])).not.toContain('strengthened');
    expect(svc.getFact(rate.id).validUntil).toBeNull();
  });

  it('said as usual ("like always"), a fact strengthens the one it restates, and what it adds is stored too; facts about the "user" are matched by their words', async () => {
    home = tempHome();
    ({ svc } = openService(home));
    const water = svc.memoryStore({ text: 'Does a 30% water change on the reef tank every Saturday' }).fact;
    const runs = svc.memoryStore({ text: 'Long runs are on Sunday mornings' }).fact;
    const tree = svc.memoryStore({ text: 'User keeps the family tree on Ancestry.com' }).fact;
    const decide = async (text: string) => (await svc.capture([user(text)], undefined, { dryRun: true })).decisions.map((d) => [d.action, d.replaces?.id ?? d.fact?.id ?? null]);
    // Nothing new: strengthened only.
    expect(await decide('We do the reef tank water change every saturday like always.')).toEqual([['strengthened', water.id]]);
    // Something new: the known fact is strengthened and the sentence stored.
    expect(await decide('I do long runs on sunday mornings as usual, always with the Harriers club from the boathouse.')).toEqual([
      ['strengthened', runs.id],
      ['stored', null],
    ]);
    // A change said "as usual" is still a change, not a restatement.
    expect((await decide('Long runs moved to saturday mornings, same as before the marathon block.')).map((d) => d[0])).not.toContain('strengthened');
    // "User keeps ..." and "I've moved the family tree ...": "user" stands between them no more.
    expect(await decide("I've moved the whole family tree off Ancestry and into Gramps on my own laptop.")).toEqual([['superseded', tree.id]]);
  });

  it('where a credential lives is kept as a credential fact, which the auth-failure hint finds for its host', async () => {
    home = tempHome();
    ({ svc } = openService(home));
    const { decisions } = await svc.capture([user('The deploy key for ci-07.internal is stored in 1Password under "ci deploy", ask me if it is not there.')]);
    expect(decisions.map((d) => [d.action, d.found.rule, d.found.category, [...d.found.tags]])).toEqual([['stored', 'named-fact', 'technical', ['auto-capture', 'named-fact', 'credential']]]);
    const q = { target: 'ci-07.internal', aliases: [], query: 'ci-07.internal credential password token key auth' };
    const found = await svc.credentialRecall(q, { role: 'specialist', agentId: null, sessionId: null }, { includeVault: false, vectorDeadlineMs: 0 });
    expect(found.hits.map((h) => h.fact.id)).toEqual([decisions[0]?.fact?.id]);
  });

  it('dry run decides and writes nothing; minConfidence and categories filter; bad input is a typed error that writes nothing', async () => {
    home = tempHome({ autoCapture: { categories: ['preference'], minConfidence: 0.8 } });
    ({ svc } = openService(home));
    const { decisions: dry } = await svc.capture([user('remember that the staging DB is on db2.internal. I prefer tabs over spaces. Priya is the on-call lead')], undefined, { dryRun: true });
    expect(dry.map((d) => d.action)).toEqual(['skipped', 'stored', 'skipped']);
    expect(dry[0]?.reason).toMatch(/category technical is not in autoCapture.categories/);
    expect(dry[2]?.reason).toMatch(/confidence 0.7 is below autoCapture.minConfidence/);
    expect(svc.listFacts()).toHaveLength(0);
    const tool = await callAgentTool(svc, AGENT, 'memory_capture', { transcript: [{ role: 'user', content: 'I prefer tabs over spaces' }] });
    expect(tool).toMatchObject({ ok: true, data: { decisions: [{ action: 'stored', rule: 'preference' }] } });
    const bad = await callAgentTool(svc, AGENT, 'memory_capture', { transcript: [{ role: 'user' }] });
    expect(bad).toMatchObject({ ok: false, error: { code: 'MEM_ERR_INVALID_INPUT' } });
    expect(svc.listFacts({}, AGENT)).toHaveLength(1);
    expect(() => resolveConfig({ autoCapture: { scope: 'team' } }, { env: home.env })).toThrow(MemoryError);
  });
});

describe('the sentence classifier (real embedding worker, the shipped model)', () => {
  let home: TestHome;
  let svc: MemoryService;
  afterEach(async () => {
    await svc?.close();
    home?.cleanup();
  });

  const said = user('we buy all our flour from the mill in hadley. can you draft the email to the landlord? I prefer tabs over spaces. run the tests please. The weather is nice today.');

  it('decides with the semantic layer running: keeps a fact stated without trigger words, drops requests and small talk', async () => {
    home = tempHome();
    ({ svc } = openService(home));
    await startSemantic(svc, home.config, () => undefined, { maintain: false });
    const r = await svc.capture([said], AGENT);
    expect({ by: r.by, reason: r.reason }).toEqual({ by: 'classifier', reason: null });
    expect(r.decisions.map((d) => [d.action, d.found.rule, d.found.text])).toEqual([
      ['stored', 'model', 'We buy all our flour from the mill in hadley.'],
      ['stored', 'preference', 'I prefer tabs over spaces.'],
    ]);
    expect(svc.listFacts({}, AGENT).map((f) => [f.source, f.tags])).toEqual(
      expect.arrayContaining([['auto-capture', ['auto-capture', 'model']]]),
    );
  });

  it('a sentence the classifier drops that says memory knows it strengthens the fact it restates, and is never stored', async () => {
    home = tempHome();
    ({ svc } = openService(home));
    await startSemantic(svc, home.config, () => undefined, { maintain: false });
    const oil = svc.memoryStore({ text: 'User uses Moebius 9010 oil on the balance jewels' }, AGENT).fact;
    const r = await svc.capture([user('Moebius 9010 on the jewels as usual. Anyway, can you explain beat error?')], AGENT);
    expect(r.decisions.map((d) => [d.action, d.fact?.id ?? null])).toEqual([['strengthened', oil.id]]);
    expect(svc.getFact(oil.id).recallCount).toBe(1);
    expect(svc.listFacts({}, AGENT).map((f) => f.id)).toEqual([oil.id]);
    // Said as known, but memory holds nothing like it: nothing is stored, nothing strengthened.
    expect((await svc.capture([user('Hairspring pliers as usual. Anyway, what about beat error?')], AGENT)).decisions).toEqual([]);
  });

  it('keeps what one message says in a row as one fact, and what other messages say as their own', async () => {
    home = tempHome();
    ({ svc } = openService(home));
    await startSemantic(svc, home.config, () => undefined, { maintain: false });
    const r = await svc.capture(
      [user('Our distributor for the spanish wines is Ole Imports. The rep is Nadia and she comes by the first monday of the month. can you draft the reorder email?'), user('I prefer tabs over spaces.')],
      AGENT,
      { dryRun: true },
    );
    expect(r.decisions.map((d) => d.found.text)).toEqual([
      'Our distributor for the spanish wines is Ole Imports. The rep is Nadia and she comes by the first monday of the month.',
      'I prefer tabs over spaces.',
    ]);
  });

  it('a message that is only a preference or a lasting decision is kept, whatever the classifier makes of its few words', async () => {
    home = tempHome();
    ({ svc } = openService(home));
    await startSemantic(svc, home.config, () => undefined, { maintain: false });
    const kept = async (text: string) => (await svc!.capture([user(text), { role: 'assistant', content: 'Got it.' }], AGENT, { dryRun: true })).decisions.map((d) => d.found.text);
    // The classifier alone scores each of these under its threshold (0.17-0.18 against 0.2).
    expect(await kept('I prefer short answers')).toEqual(['I prefer short answers']);
    expect(await kept('I hate tabs')).toEqual(['I hate tabs']);
    expect(await kept('we decided to keep backups for 30 days')).toEqual(['We decided to keep backups for 30 days']);
    // A choice for this task is not a lasting decision, alone or not.
    expect(await kept('Going with alabaster for this room, thanks')).toEqual([]);
  });

  it('autoCapture.classifier off: the rules alone decide, and say so', async () => {
    home = tempHome({ autoCapture: { classifier: false } });
    ({ svc } = openService(home));
    await startSemantic(svc, home.config, () => undefined, { maintain: false });
    const r = await svc.capture([said], AGENT, { dryRun: true });
    expect({ by: r.by, reason: r.reason }).toEqual({ by: 'rules', reason: 'autoCapture.classifier is off' });
    expect(r.decisions.map((d) => d.found.rule)).toEqual(['preference']);
  });
});

