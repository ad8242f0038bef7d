/**
 * Auto-capture's statements of change and restatements on a real store (src/memory/capture.ts with
 * src/core/capture-values.ts): a new value for what a current fact holds replaces that fact, even in
 * other words; a value of another kind, or a fact that shares one word only, is left alone; a sentence that
 * says nothing changed strengthens the fact it restates instead of being stored again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { givesNewValue, newCountOf, newValueOf, statedValues } from '../src/core/capture-values.js';
import type { MemoryService } from '../src/memory/service.js';
import { openService, tempHome, type TestHome } from './helpers.js';

const user = (content: string) => ({ role: 'user', content });

describe('stated values', () => {
  it('reads money, times, weekdays and numbers with what they count', () => {
    expect(statedValues('Labor is $110/hr now')).toEqual([{ kind: 'money', value: '110' }]);
    expect(statedValues('Rehearsals moved to Thursdays at 7:30')).toEqual([
      { kind: 'day', value: 'thu' },
      { kind: 'time', value: '7:30' },
    ]);
    expect(statedValues('rehab moved to tue/thu at 10am')).toEqual([
      { kind: 'day', value: 'tue' },
      { kind: 'day', value: 'thu' },
      { kind: 'time', value: '10am' },
    ]);
    // Thousands with nothing counted after them are money: "Budget's 92k now" is a new "$85k"; "92k miles" counts miles.
    expect(statedValues("Budget's 92k now, 92k miles on the van")).toEqual([
      { kind: 'money', value: '92' },
      { kind: 'n:k', value: '92' },
    ]);
    expect(givesNewValue('Budget for the in-law conversion is $85k', "Budget's 92k now after the plumbing reroute")).toBe(true);
    // A value in brackets is said of the word before them, and "aiko's 10" of Aiko.
    expect([...newValueOf('User unschools two kids, Nora (9) and Felix (6)', "Nora's 10 now btw")]).toEqual(['nora']);
    expect([...newValueOf("User's daughter Aiko is 9", "aiko's 10 now, she had a birthday")]).toEqual(['aiko']);
    expect(newCountOf('User has 14 alpacas', 'up to 17 alpacas now')).toBe('alpaca');
    expect(newCountOf('User has 14 alpacas', 'still 14 alpacas and 2 llamas now')).toBeNull();
    expect(statedValues('checkout is noon, lisinopril 20mg')).toEqual([
      { kind: 'time', value: 'noon' },
      { kind: 'n:mg', value: '20' },
    ]);
    expect(statedValues('an 8-shaft loom, down to two hives')).toEqual([
      { kind: 'n:shaft', value: '8' },
      { kind: 'n:hive', value: '2' },
    ]);
    // A version has no unit; "26 last sprint" counts nothing.
    expect(statedValues('Django 4.2, minSdk to 26 last sprint')).toEqual([
      { kind: 'n:', value: '4.2' },
      { kind: 'n:', value: '26' },
    ]);
  });

  it('reads a count with thousands, an ordinal, how often, and what a count counts past the word after it', () => {
    expect(statedValues('about 1,200 laying hens on the 2nd and 4th weekends, backups nightly, every 6 hours')).toEqual([
      { kind: 'n:lai', value: '1200' },
      { kind: 'ordinal', value: '2' },
      { kind: 'ordinal', value: '4' },
      { kind: 'often', value: '1 day' },
      { kind: 'often', value: '6 hour' },
    ]);
    // "6 barn owl nest boxes" counts boxes, so "8 boxes" is a new count of them; "1,800 hens" of "1,200 laying hens".
    expect(newCountOf('User monitors 6 barn owl nest boxes along the fence line', "We're up to 8 boxes now")).toBe('box');
    expect(newCountOf('User runs an egg farm with about 1,200 laying hens', "We're at 1,800 hens now")).toBe('hen');
    // A hyphen or a unit written on makes the word an adjective or a unit: "75-gallon planted aquarium", "64gb ram".
    expect(newCountOf('Has a 75-gallon planted aquarium', "so that's 14 plants total now")).toBeNull();
    expect(newCountOf('User lives full-time in a 2018 Ram ProMaster van', 'an old optiplex with 64gb ram now')).toBeNull();
    // A unit of measure is not a thing counted: "80 lbs" of dogs is no new "150 lb pole".
    expect(newCountOf('Jonah vaults on a 150 lb pole', 'I dont take dogs over 80 lbs anymore')).toBeNull();
    expect(givesNewValue("User's on-call weekends are the 1st and 3rd weekends of each month", 'My call weekends changed to 2nd and 4th')).toBe(true);
    expect(givesNewValue('YugabyteDB backups go nightly to S3', 'Backups are every 6 hours now')).toBe(true);
  });

  it('a year and an address are kinds of their own, not counts or versions', () => {
    expect(statedValues('Paper target is NeurIPS 2025, the NAS is at 192.168.1.10, iOS 16')).toEqual([
      { kind: 'year', value: '2025' },
      { kind: 'address', value: '192.168.1.10' },
      { kind: 'n:', value: '16' },
    ]);
    expect(givesNewValue('Paper submission target is NeurIPS 2025', 'min deployment target is ios 16 now')).toBe(false);
  });

  it('names the words a new value is said of: those just before the old value and the new one', () => {
    expect([...newValueOf('App minSdk is 24', 'We bumped minSdk to 26 last sprint')]).toEqual(['minsdk']);
    expect([...newValueOf('Mom takes lisinopril 10mg every morning', 'Her doctor bumped the lisinopril to 20mg')]).toEqual(['lisinopril']);
    expect([...newValueOf('Kuroneko Press invoices are due net 30', "it's net 45 now")]).toEqual(['net']);
    // Said after the value, or the same value again: no word.
    expect([...newValueOf('Dog adoption fee is $150', "We're going with a $40 no-show fee")]).toEqual([]);
    expect([...newValueOf('App minSdk is 24', 'minSdk is still 24, compileSdk 35')]).toEqual([]);
  });

  it('a new value is one of a kind the fact holds that the fact does not hold', () => {
    expect(givesNewValue('App minSdk is 24', 'We bumped minSdk to 26')).toBe(true);
    expect(givesNewValue('User weaves on a 4-shaft Schacht loom', "I'm on an 8-shaft Louet now")).toBe(true);
    expect(givesNewValue('League night is Tuesday at Starlite Lanes', 'League moved to thursdays')).toBe(true);
    // The same value again, or a value of another kind, is not a new value.
    expect(givesNewValue('League night is Tuesday at Starlite Lanes', 'League is still tuesdays, new lanes')).toBe(false);
    expect(givesNewValue('Mom takes lisinopril 10mg every morning', 'lisinopril moved to 8am')).toBe(false);
    expect(givesNewValue('Keeps 6 hives', 'We have 6 hives and 2 dogs now')).toBe(false);
  });
});

describe('statements of change on a real store', () => {
  let home: TestHome | undefined;
  let svc: MemoryService | undefined;
  afterEach(async () => {
    await svc?.close();
    home?.cleanup();
    svc = undefined;
    home = undefined;
  });

  /** A fresh service on a temp home, closed after the test. */
  const open = (): MemoryService => {
    home = tempHome();
    return openService(home).svc;
  };
  const decide = async (text: string) => (await (svc as MemoryService).capture([user(text)], undefined, { dryRun: true })).decisions.map((d) => [d.action, d.replaces?.id ?? d.fact?.id ?? null]);

  it('a new value for what a current fact holds replaces it, said in other words', async () => {
    svc = open();
    const league = svc.memoryStore({ text: 'League night is Tuesday at Starlite Lanes' }).fact;
    const dose = svc.memoryStore({ text: 'Miso gets methimazole 2.5mg twice daily' }).fact;
    const brew = svc.memoryStore({ text: 'User brews all-grain batches on a Grainfather G30' }).fact;
    expect(await decide('Starlite league moved to thursdays this season.')).toEqual([['superseded', league.id]]);
    expect(await decide("Miso's methimazole dose is 1.25mg twice a day now")).toEqual([['superseded', dose.id]]);
    // "Going forward" says a change too.
    const sake = svc.memoryStore({ text: 'User brews sake at home in 5-gallon batches' }).fact;
    const retro = svc.memoryStore({ text: 'User prefers the Start/Stop/Continue retro format' }).fact;
    expect(await decide("Going forward I'm doing 10 gallon batches, bought a bigger fermenter.")).toEqual([['superseded', sake.id]]);
    expect(await decide('Use the 4Ls retro format going forward, start/stop/continue got stale.')).toEqual([['superseded', retro.id]]);
    // The old value named as gone: "sold the grainfather".
    expect(await decide("Sold the grainfather, I'm brewing on an Anvil Foundry 10.5 now.")).toEqual([['superseded', brew.id]]);
  });

  it('a new holder of a role replaces the fact naming the former one; someone said to have retired is an old value', async () => {
    svc = open();
    const manager = svc.memoryStore({ text: "Brightwater's office manager is Terri" }).fact;
    const coach = svc.memoryStore({ text: "Team's head coach is Hollis" }).fact;
    const neuro = svc.memoryStore({ text: "Ruth's neurologist is Dr. Feld" }).fact;
    const wifi = svc.memoryStore({ text: 'Guest wifi is BounceGuest' }).fact;
    expect(await decide('The new office manager is Yolanda Pruitt she approves timecards by Wednesday noon now')).toEqual([['superseded', manager.id]]);
    expect(await decide('Our coach is Min-jun now.')).toEqual([['superseded', coach.id]]);
    expect(await decide('She sees a new neurologist now, Dr. Amaya Osei at Valley Neuro, since Dr. Feld retired.')).toEqual([['superseded', neuro.id]]);
    const captain = svc.memoryStore({ text: "User's clogging team captain is Darlene", entity: 'Blue Ridge Stompers' }).fact;
    expect(await decide("Darlene stepped down, the captain's Renee now.")).toEqual([['superseded', captain.id]]);
    // Not a role a person holds: nothing replaced.
    expect(await decide('Our wifi is Starlink now')).not.toContainEqual(['superseded', wifi.id]);
    // The same holder again is not a new one.
    expect(await decide('Our head coach is Hollis now, same as last year')).not.toContainEqual(['superseded', expect.any(String)]);
  });

  it('more ways to name the old value, and a new count of the same thing, replace the fact', async () => {
    svc = open();
    const deposit = svc.memoryStore({ text: 'User requires a $100 deposit to book a tattoo.' }).fact;
    const events = svc.memoryStore({ text: 'Adoption events are held at PetSmart on Route 9' }).fact;
    const skip = svc.memoryStore({ text: "User's skip is Harold" }).fact;
    const zigbee = svc.memoryStore({ text: 'Zigbee coordinator is a ConBee II using ZHA' }).fact;
    const dataset = svc.memoryStore({ text: 'Analytics dataset in BigQuery is prod_analytics' }).fact;
    const alpacas = svc.memoryStore({ text: 'User has 14 alpacas' }).fact;
    const conference = svc.memoryStore({ text: "Team's next major conference is HMUN in late January" }).fact;
    const coach = svc.memoryStore({ text: "User's daughter Mila trains with coach Elena Petrova." }).fact;
    expect(await decide("Deposit's $150 now, not $100 — too many no-shows this summer.")).toEqual([['superseded', deposit.id]]);
    expect(await decide('Events are at the tractor supply on main st now, petsmart stopped hosting us.')).toEqual([['superseded', events.id]]);
    expect(await decide("Harold's retiring after this season sadly, Jean's taking over as skip.")).toEqual([['superseded', skip.id]]);
    expect(await decide('Swapped the conbee for a sonoff zbdongle-e last week and moved to z2m.')).toEqual([['superseded', zigbee.id]]);
    expect(await decide('Our BigQuery dataset got renamed to analytics_v2, prod_analytics is gone.')).toEqual([['superseded', dataset.id]]);
    expect(await decide("We're no longer doing HMUN, going to NAIMUN in february instead")).toEqual([['superseded', conference.id]]);
    expect(await decide("Mila isn't with Elena anymore, it's Brandon Liu now.")).toEqual([['superseded', coach.id]]);
    // One shared word is enough when it is what both count: 17 alpacas for 14.
    expect(await decide("We're up to 17 alpacas now since the three crias were born in march.")).toEqual([['superseded', alpacas.id]]);
    // Said to be done, history or dead; scratched.
    const tune = svc.memoryStore({ text: 'User is learning Irish session tunes and is currently working on The Kesh' }).fact;
    const genome = svc.memoryStore({ text: 'Reference genome used is GRCh37, also called hg19' }).fact;
    const target = svc.memoryStore({ text: 'User targets Android first for the BeeWare app' }).fact;
    expect(await decide('Kesh is done, on to the silver spear now.')).toEqual([['superseded', tune.id]]);
    expect(await decide("We're realigning everything to GRCh38 now, hg19 is dead to us.")).toEqual([['superseded', genome.id]]);
    expect(await decide('Scratch android first, iOS is the priority now since my testers are on iphones.')).toEqual([['superseded', target.id]]);
    // A thing that died or gave out, past a word like "finally"; "not doing X anymore".
    const router = svc.memoryStore({ text: 'Home router is a Netgear Nighthawk R7000' }).fact;
    const video = svc.memoryStore({ text: 'User edits videos in Final Cut Pro' }).fact;
    const race = svc.memoryStore({ text: 'User is training for the Boston Marathon in April' }).fact;
    expect(await decide('The nighthawk finally died so the router is an asus rt-ax58u now.')).toEqual([['superseded', router.id]]);
    expect(await decide("Not doing boston anymore, I'm running chicago in october now.")).toEqual([['superseded', race.id]]);
    expect((await decide('The nighthawk finally died so the router is an asus rt-ax58u now.')).map(([, id]) => id)).not.toContain(video.id);
  });

  it('a change is found in words people type in a hurry: weekdays cut short, "isnt X anymore", a count that grew, whose it is', async () => {
    svc = open();
    const route = svc.memoryStore({ text: 'User drives the county bookmobile on the Tuesday and Thursday routes' }).fact;
    const backend = svc.memoryStore({ text: "FieldLog's backend is a Laravel API" }).fact;
    const cluster = svc.memoryStore({ text: 'YugabyteDB cluster: 3 nodes, replication factor 3, in us-west-2' }).fact;
    const backups = svc.memoryStore({ text: 'YugabyteDB backups go nightly to S3 bucket yb-backups-prod', entity: 'YugabyteDB' }).fact;
    const boxes = svc.memoryStore({ text: 'User monitors 6 barn owl nest boxes along the Miller farm fence line' }).fact;
    const route2 = svc.memoryStore({ text: "User's mail route is about 112 miles with 480 boxes" }).fact;
    expect(await decide('My routes are wed and fri now not tue/thu, the schedule flipped when we got a second driver')).toEqual([['superseded', route.id]]);
    expect(await decide("The backend isnt laravel anymore, it's a go service the other team wrote")).toEqual([['superseded', backend.id]]);
    expect(await decide('We expanded the yb cluster to 5 nodes across 3 AZs, still rf3, still us-west-2.')).toEqual([['superseded', cluster.id]]);
    // Said of the backups, whatever entity the fact was stored with.
    expect(await decide('Backups are every 6 hours now, same bucket.')).toEqual([['superseded', backups.id]]);
    // "Switching", "went up": changes too; pounds and euros are money as dollars are.
    const owls = svc.memoryStore({ text: 'User checks the owl boxes every second Saturday' }).fact;
    const dose = svc.memoryStore({ text: 'Takes methotrexate 15mg weekly on Sundays' }).fact;
    const fee = svc.memoryStore({ text: 'Session fee is £3 per player' }).fact;
    expect(await decide("We're switching the owl box checks to the first saturday of the month, every other week was too much")).toEqual([['superseded', owls.id]]);
    expect(await decide('Updates, methotrexate went up to 20mg, still sundays.')).toEqual([['superseded', dose.id]]);
    expect(await decide('Session fee goes up to £4 bc the hall hire went up.')).toEqual([['superseded', fee.id]]);
    const hospital = svc.memoryStore({ text: "Riverbend's backup hospital is St. Agnes" }).fact;
    expect(await decide('Our backup hospital is Mercy West now, St Agnes closed their L&D unit in the spring')).toEqual([['superseded', hospital.id]]);
    // Two facts count boxes: the nearer count is the one that grew.
    expect(await decide("We're up to 8 boxes now, Hollis put two more on the east windbreak in march.")).toEqual([['superseded', boxes.id]]);
    expect(svc.getFact(route2.id).validUntil).toBeNull();
  });

  it('the words of what changed may sit in another clause of the sentence than the new value', async () => {
    svc = open();
    const lessons = svc.memoryStore({ text: "User's fiddle teacher is Rosalind Pike; lessons are Wednesdays at 7pm" }).fact;
    const tutoring = svc.memoryStore({ text: 'User tutors adult learner Dolores on Tuesday evenings at the Eastside branch library' }).fact;
    expect(await decide("Lesson's thursdays at 6:30 now, rosalind shuffled her whole week around")).toEqual([['superseded', lessons.id]]);
    expect(await decide('Dolores and I switched to wednesdays — 6pm, same eastside branch.')).toEqual([['superseded', tutoring.id]]);
  });

  it('a new word before a thing the fact names is a new value when the statement names three of its words', async () => {
    svc = open();
    const ci = svc.memoryStore({ text: "Team's CI pipelines are written with Dagger using the Python SDK" }).fact;
    const bands = svc.memoryStore({ text: 'User does home exercises with a yellow resistance band' }).fact;
    expect(await decide('Our dagger pipelines are on the go sdk now, everything else is go anyway.')).toEqual([['superseded', ci.id]]);
    // Two words in common are too few to say which fact the new word is of.
    expect(await decide('My PT moved me up to the red band for the exercises now.')).not.toContainEqual(['superseded', bands.id]);
  });

  it("another sentence's words are not what a change is said of", async () => {
    svc = open();
    const lessons = svc.memoryStore({ text: "User's fiddle teacher is Rosalind Pike; lessons are Wednesdays at 7pm" }).fact;
    expect(await decide('Rosalind says my lessons are paying off. Choir is thursdays at 6:30 now.')).not.toContainEqual(['superseded', lessons.id]);
    expect(svc.getFact(lessons.id).validUntil).toBeNull();
  });

  it('one shared word that both say a value of replaces the one fact holding it, never one of several', async () => {
    svc = open();
    const sdk = svc.memoryStore({ text: 'App minSdk is 24' }).fact;
    const db = svc.memoryStore({ text: 'Production database runs Postgres 13 on db-prod-1' }).fact;
    const choir = svc.memoryStore({ text: 'Choir rehearses Wednesday nights at 7' }).fact;
    const play = svc.memoryStore({ text: "Play rehearsals are Tuesdays 7-9pm at St. Mark's" }).fact;
    const paper = svc.memoryStore({ text: 'Paper submission target is NeurIPS 2025' }).fact;
    expect(await decide('We bumped minSdk to 26 last sprint so you can use java.time directly')).toEqual([['superseded', sdk.id]]);
    expect(await decide("We're on postgres 16 now btw, did the upgrade last month.")).toEqual([['superseded', db.id]]);
    // Two current facts say rehearsals: the word does not say which one changed.
    expect(await decide('Rehearsals moved to Thursdays at 7:30 starting this month.')).not.toContainEqual(['superseded', expect.any(String)]);
    // Two weekdays in common are not two words about the same thing.
    const sets = svc.memoryStore({ text: 'User sets on Tuesdays and Thursdays.' }).fact;
    expect(await decide('Dr. Okafor only does surgeries on tuesdays and thursdays now.')).not.toContainEqual(['superseded', sets.id]);
    // A version is not a new year.
    expect(await decide('Decided with the team, min deployment target is ios 16 now')).not.toContainEqual(['superseded', paper.id]);
    for (const f of [choir, play, paper, sets]) expect(svc.getFact(f.id).validUntil).toBeNull();
  });

  it('an old value said "instead of" or "not" is one only when the fact writes it as a name or shares another word', async () => {
    svc = open();
    const booking = svc.memoryStore({ text: 'Studio uses Mindbody for class bookings' }).fact;
    const paper = svc.memoryStore({ text: 'Paper submission target is NeurIPS 2025' }).fact;
    const carpool = svc.memoryStore({ text: 'User drives the school carpool on Tuesdays.' }).fact;
    expect(await decide("We're on Momence now instead of mindbody, way cheaper.")).toEqual([['superseded', booking.id]]);
    expect(await decide('I switched the rabbits to fleece liners instead of paper bedding for good last week.')).not.toContainEqual(['superseded', paper.id]);
    expect(await decide("Rehearsal is at st. brendan's parish hall now instead of the school.")).not.toContainEqual(['superseded', carpool.id]);
    for (const f of [paper, carpool]) expect(svc.getFact(f.id).validUntil).toBeNull();
    // "he's off X now" names X as gone, by the same terms; "i had that wrong" says a change.
    const adhesive = svc.memoryStore({ text: 'Dad uses Fixodent adhesive paste' }).fact;
    const job = svc.memoryStore({ text: 'User works at the Acme warehouse on weekdays' }).fact;
    expect(await decide("He's off fixodent now, switched to the sea bond strips")).toEqual([['superseded', adhesive.id]]);
    expect(await decide("I'm off work on fridays now, the new schedule started")).not.toContainEqual(['superseded', job.id]);
    const checkout = svc.memoryStore({ text: 'Cabin checkout time is 11am' }).fact;
    expect(await decide('Our cabin checkout runs till 10am, not 11, i had that wrong')).toEqual([['superseded', checkout.id]]);
    expect(svc.getFact(job.id).validUntil).toBeNull();
  });

  it('the other word a weak old value needs may be one the user said elsewhere in the conversation', async () => {
    svc = open();
    const fridge = svc.memoryStore({ text: 'User volunteers restocking the Elm Street community fridge on Tuesday evenings' }).fact;
    const said = "We're on thursdays now not tuesdays, the church lot got double booked";
    const capture = async (turns: string[]) => (await (svc as MemoryService).capture(turns.map(user), undefined, { dryRun: true })).decisions.map((d) => [d.action, d.replaces?.id ?? null]);
    // Alone, only the weekday names the fact: nothing replaced.
    expect(await capture([said])).toEqual([['stored', null]]);
    // Said in a conversation about the fridge, the weekday is the fridge's.
    expect(await capture(['Can you make the volunteer sign for the fridge?', said])).toContainEqual(['superseded', fridge.id]);
    expect(svc.getFact(fridge.id).validUntil).toBeNull();
  });

  it('with no word of change, a value said in place of the old one corrects the fact holding it; a taste or a request does not', async () => {
    svc = open();
    const advisor = svc.memoryStore({ text: 'PhD advisor is Dr. Ellen Marsh' }).fact;
    const servers = svc.memoryStore({ text: "User's company has 14 CentOS 7 servers to migrate" }).fact;
    const renewal = svc.memoryStore({ text: "User's FFL renewal is due in March" }).fact;
    const surgery = svc.memoryStore({ text: 'User had endoscopic sinus surgery for nasal polyps on March 4' }).fact;
    expect(await decide('My advisor is Dr. Ellen Walsh, not Marsh.')).toEqual([['superseded', advisor.id]]);
    expect(await decide('Our CentOS 7 migration is 16 servers not 14.')).toEqual([['superseded', servers.id]]);
    expect(await decide('The FFL renewal is due in june not march, i read the letter wrong.')).toEqual([['superseded', renewal.id]]);
    // An ordinal names the number a date holds.
    expect(await decide('The sinus surgery was the 11th, not the 4th')).toEqual([['superseded', surgery.id]]);
    // Not after what something is: a request or a taste, whatever fact holds the word.
    const ci = svc.memoryStore({ text: 'CI runs on GitHub Actions' }).fact;
    const emails = svc.memoryStore({ text: 'Prefers volunteer emails short and bullet-pointed' }).fact;
    const fridge = svc.memoryStore({ text: 'The community fridge takes whole produce and sealed items' }).fact;
    expect(await decide('The updater endpoint lives in our own R2 bucket, not github releases')).not.toContainEqual(['superseded', ci.id]);
    expect(await decide('I prefer alerts going to the #noc slack channel, not email.')).not.toContainEqual(['superseded', emails.id]);
    expect(await decide('The mesh only covers the payments and orders namespaces, not the whole fridge')).not.toContainEqual(['superseded', fridge.id]);
    for (const f of [ci, emails, fridge]) expect(svc.getFact(f.id).validUntil).toBeNull();
  });

  it('what a statement finished doing, swapped every so often, or stopped doing is not an old value', async () => {
    svc = open();
    const migrations = svc.memoryStore({ text: 'Schema migrations are managed with sqitch' }).fact;
    const meds = svc.memoryStore({ text: "User's dad takes metformin every morning" }).fact;
    expect(await decide('We finished migrating from Koha to Alma over the summer, so assume Alma now.')).not.toContainEqual(['superseded', migrations.id]);
    expect(await decide('The hvac filter is 16x25x1 and gets swapped every 90 days now')).not.toContainEqual(['superseded', meds.id]);
    for (const f of [migrations, meds]) expect(svc.getFact(f.id).validUntil).toBeNull();
  });

  it('sentences said in a row that change two facts are two facts, each replacing its own', async () => {
    svc = open();
    const db = svc.memoryStore({ text: 'Production database runs Postgres 13 on db-prod-1' }).fact;
    const standup = svc.memoryStore({ text: 'Team standup is at 9:00 on weekdays' }).fact;
    const said = "We're on postgres 16 now. Standup moved to 9:30, it was too early for Sam.";
    const decisions = (await (svc as MemoryService).capture([user(said)], undefined, { dryRun: true })).decisions;
    expect(decisions.map((d) => [d.action, d.replaces?.id ?? null, d.found.text])).toEqual([
      ['superseded', db.id, "We're on postgres 16 now."],
      ['superseded', standup.id, 'Standup moved to 9:30, it was too early for Sam.'],
    ]);
  });

  it('sentences said in a row whose one part corrects a fact replace it, though the whole message does not name it', async () => {
    svc = open();
    const windows = svc.memoryStore({ text: 'User is restoring 9 original casement windows' }).fact;
    const said = 'Our window count is 11 not 9, forgot the two in the attic. We switched to allback putty this year.';
    const decisions = (await (svc as MemoryService).capture([user(said)], undefined, { dryRun: true })).decisions;
    expect(decisions.map((d) => [d.action, d.replaces?.id ?? null])).toEqual([['superseded', windows.id]]);
    expect(decisions[0]?.found.text).toContain('We switched to allback putty');
  });

  it('a change said in more ways: a count named past "during", one weekday more, someone retired with no word of change', async () => {
    svc = open();
    const brace = svc.memoryStore({ text: 'User wears a size 2 knee brace during the day' }).fact;
    const lesson = svc.memoryStore({ text: 'User has a weekly chess lesson with coach Ivan on Thursdays' }).fact;
    const mentor = svc.memoryStore({ text: "User's mentor at the lab is Gerald" }).fact;
    const people = svc.memoryStore({ text: 'The reunion usually has about 40 people' }).fact;
    expect(await decide('My physio bumped me up to a size 3 brace now')).toEqual([['superseded', brace.id]]);
    expect(await decide('The ivan lessons are tuesdays now he started coaching thursdays')).toEqual([['superseded', lesson.id]]);
    expect(await decide('Her name is Wanda, gerald retired in the spring')).toEqual([['superseded', mentor.id]]);
    // A month is a value of its own kind; "pulled out of" names the old value.
    const audit = svc.memoryStore({ text: "Kestrel Labs' SOC 2 audit is scheduled for September" }).fact;
    const tool = svc.memoryStore({ text: 'Kestrel Labs uses Secureframe for compliance' }).fact;
    expect(await decide('The Kestrel Labs SOC 2 audit got pushed to november, the auditor had a conflict')).toEqual([['superseded', audit.id]]);
    expect(await decide('We pulled out of secureframe in june, compliance is on drata now')).toEqual([['superseded', tool.id]]);
    // Gone, but no name the fact writes as one: nothing replaced.
    expect(await decide('Keep the tone respectful, thousands of real people died there')).not.toContainEqual(['superseded', people.id]);
  });

  it('a change in words the fact does not share replaces the one fact the conversation is about that holds a value of its kind', async () => {
    svc = open();
    const cello = svc.memoryStore({ text: 'User has cello lessons Thursdays at 5pm with Ms. Hartley' }).fact;
    const talk = [user('ms hartley wants me on a baroque piece for my cello lessons, any suggestions?'), user("Its tuesdays at 6:30pm now, the studio changed its hours.")];
    const decisions = async () => (await (svc as MemoryService).capture(talk, undefined, { dryRun: true })).decisions.map((d) => [d.action, d.replaces?.id ?? null]);
    expect(await decisions()).toContainEqual(['superseded', cello.id]);
    // The same words said with nothing about the fact in the conversation replace nothing.
    const alone = (await (svc as MemoryService).capture([user("Its tuesdays at 6:30pm now, the studio changed its hours.")], undefined, { dryRun: true })).decisions;
    expect(alone.map((d) => d.replaces?.id ?? null)).not.toContain(cello.id);
    // Two facts the conversation is about that a new weekday would change: neither is picked.
    svc.memoryStore({ text: 'User has cello ensemble rehearsal with Ms. Hartley on Mondays' });
    expect((await decisions()).map(([, id]) => id)).not.toContain(cello.id);
  });

  it('one sentence that changes two facts ends both: the new fact continues the one the whole sentence replaces, the other is superseded by it', async () => {
    svc = open();
    const program = svc.memoryStore({ text: 'Irene goes to an adult day program Mon/Wed/Fri' }).fact;
    const doctor = svc.memoryStore({ text: "Irene's neurologist is Dr. Okafor at Riverside Memory Clinic" }).fact;
    const lunch = svc.memoryStore({ text: 'Irene eats lunch at noon' }).fact;
    const said = "Irene's day program is tues/thurs now, dr okafor retired so her neurologist is dr lindqvist at the clinic";
    // A dry run says both, and writes nothing.
    const dry = (await (svc as MemoryService).capture([user(said)], undefined, { dryRun: true })).decisions;
    // The whole sentence names the doctor as gone; its first clause gives the program new days.
    expect(dry.map((d) => [d.action, d.replaces?.id, d.alsoReplaces?.map((f) => f.id)])).toEqual([['superseded', doctor.id, [program.id]]]);
    expect(svc.getFact(program.id).validUntil).toBeNull();
    const [d] = (await (svc as MemoryService).capture([user(said)])).decisions;
    const stored = d?.fact;
    if (!stored) throw new Error('nothing stored');
    expect(stored.lineageId).toBe(doctor.lineageId);
    expect(svc.getFact(doctor.id).supersededBy).toBe(stored.id);
    expect(svc.getFact(program.id)).toMatchObject({ endedReason: 'superseded', supersededBy: stored.id });
    expect(svc.getFact(lunch.id).validUntil).toBeNull();
    // A clause said as usual does not strengthen a fact the sentence ends.
    const venue = svc.memoryStore({ text: 'Irene goes to the Maple House day program on Mondays' }).fact;
    const usual = (await (svc as MemoryService).capture([user("Irene's maple house day program is tuesdays now, her neurologist is dr chen now so dr lindqvist is gone, the day program is still at maple house")], undefined, { dryRun: true })).decisions;
    expect(usual.flatMap((x) => [x.replaces?.id, ...(x.alsoReplaces ?? []).map((f) => f.id)])).toContain(venue.id);
    expect(usual.filter((x) => x.action === 'strengthened').map((x) => x.fact?.id)).not.toContain(venue.id);
    // A clause that changes nothing adds nothing: one fact replaced.
    const fee = svc.memoryStore({ text: 'Irene’s day program fee is $60 a day' }).fact;
    const one = (await (svc as MemoryService).capture([user("Irene's day program fee is $75 a day now, she likes the new art teacher")], undefined, { dryRun: true })).decisions;
    expect(one.map((x) => [x.action, x.replaces?.id, x.alsoReplaces])).toEqual([['superseded', fee.id, undefined]]);
  });

  it('one shared word, or a value in another clause than the change, replaces nothing', async () => {
    svc = open();
    const fee = svc.memoryStore({ text: 'Dog adoption fee is $150' }).fact;
    const rides = svc.memoryStore({ text: 'Saturday club rides start from Bean There Cafe at 8am' }).fact;
    const rehearsal = svc.memoryStore({ text: "Choir rehearsals are Tuesdays 7-9pm at St. Mark's" }).fact;
    expect(await decide("We're going with a $40 no-show fee starting june 1")).toEqual([['stored', null]]);
    expect(await decide('My new VA starts monday and will help with listings.')).toEqual([['stored', null]]);
    // The change is in one clause, the choir's day in another that changes nothing.
    expect(await decide("We're starting the christmas cantata next week. Choir rehearsals are wednesdays at st mark's if u need it")).not.toContainEqual(['superseded', rehearsal.id]);
    for (const f of [fee, rides, rehearsal]) expect(svc.getFact(f.id).validUntil).toBeNull();
  });

  it('said to be unchanged, a sentence strengthens the fact it restates and is not a change', async () => {
    svc = open();
    const diet = svc.memoryStore({ text: "Pico eats Harrison's pellets plus fresh vegetables and a little fruit on weekends" }).fact;
    const hours = svc.memoryStore({ text: 'Needle Drop Records is open Wednesday through Sunday, noon to 8' }).fact;
    // A quarter of the fact's words name it when the sentence says it is known.
    expect(await decide("Pico's diet is the same: he's still on harrison's pellets and veggies")).toEqual([['strengthened', diet.id]]);
    // "haven't changed" is not a statement of change.
    expect(await decide("Needle Drop's hours haven't changed, still open wednesday through sunday noon to 8")).toEqual([['strengthened', hours.id]]);
    expect(svc.getFact(hours.id).validUntil).toBeNull();
    // Said as usual beside a change: the change replaces its fact, and the clause said as usual strengthens its own.
    const dues = svc.memoryStore({ text: 'Willow Creek HOA dues are $240 per quarter' }).fact;
    const board = svc.memoryStore({ text: 'Willow Creek HOA board meets the second Thursday of each month at 7pm' }).fact;
    expect(await decide('HOA dues are $265 per quarter now, not $240. Board still meets second thursdays at 7 like always.')).toEqual([
      ['superseded', dues.id],
      ['strengthened', board.id],
    ]);
    // The fact a clause says as usual is not the one the rest changes.
    const garden = svc.memoryStore({ text: 'Garden work days are the first Saturday of each month' }).fact;
    const plots = svc.memoryStore({ text: 'Community garden plot fee is $25 per season' }).fact;
    expect(await decide('Plot fees are $30 now, the board voted to raise it, work days are still first saturday like always.')).toEqual([
      ['superseded', plots.id],
      ['strengthened', garden.id],
    ]);
    const walks = svc.memoryStore({ text: 'Nordic walking group meets Wednesdays at 12:15 at the Grange' }).fact;
    expect(await decide('We still meet wednesdays at 12:15 at the Grange, nothing changed there.')).toEqual([['strengthened', walks.id]]);
  });
});
