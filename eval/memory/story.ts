/**
 * The evaluation's workspace: eleven weeks of one person's notes. Chen Xiao (陈晓) is a
 * backend engineer at Tidewater in Berlin (calsync, a CalDAV server in Rust; routekit, a
 * delivery-route solver in Python), lives with Jonas and a cat, Mochi; parents in Chengdu,
 * sister Chen Mei in Shanghai. Some days are written mostly in Chinese (a trip home, family).
 *
 * `KEY_NOTES` are the notes queries look for; `generate-workspace.ts` mixes them with the
 * routine notes of `fillerNotes` (stand-ups, lunches, runs) that compete for the top 5.
 */

/** The evaluation's "now": the morning after the last note. */
export const EVAL_NOW = new Date(2026, 10, 28, 10, 0, 0).getTime();
export const FIRST_DAY = '2026-09-14';
export const LAST_DAY = '2026-11-27';

/** Days without a daily file (weekends away, days nothing was written). */
export const SKIPPED_DAYS = new Set([
  '2026-09-19',
  '2026-09-27',
  '2026-10-04',
  '2026-10-18',
  '2026-11-01',
  '2026-11-15',
  '2026-11-22',
]);

/** Days written mostly in Chinese (the filler of these days is Chinese too). */
export const CHINESE_DAYS = new Set([
  '2026-10-01',
  '2026-10-02',
  '2026-10-03',
  '2026-10-05',
  '2026-10-06',
  '2026-10-07',
  '2026-11-08',
  '2026-11-21',
]);

/** Key notes by day: markdown lines, written under `## Work` / `## Life` headings when given as [heading, line]. */
export const KEY_NOTES: Record<string, [string, string][]> = {
  '2026-09-14': [
    [
      'Work',
      '- 09:40 [decision] calsync: we settled on quick-xml 0.36 for the PROPFIND parser instead of roxmltree, streaming matters for big calendars',
    ],
    ['Life', '- 19:10 [fact] Electricity contract with Vattenfall: €0.31/kWh, monthly advance €84'],
    ['Life', '- 21:00 [other] Mochi threw up twice, switched her to the salmon kibble from Fressnapf'],
  ],
  '2026-09-15': [
    ['Work', '- 11:20 [fact] routekit uses OR-Tools 9.10; the CVRP model lives in routekit/solver/cvrp.py'],
    [
      'Work',
      '- 15:05 [other] Code review for Priya: her retry wrapper in http_client.rs swallows the 429 Retry-After header',
    ],
    ['Life', '- 18:30 [entity] Dentist: Dr. Okafor at Zahnarztpraxis Mitte, Torstraße 140, phone 030 2847 1190'],
  ],
  '2026-09-16': [
    ['Work', '- 10:00 [decision] Sprint 38 goal: ship calendar-color sync in calsync behind the flag `color_sync`'],
    ['Life', '- 20:15 [preference] Jonas really dislikes cilantro, leave it out when I cook for both of us'],
  ],
  '2026-09-17': [
    ['Work', '- 14:30 [fact] Staging database is Postgres 16 on db-staging-2.tidewater.internal, port 5433'],
    ['Life', '- 08:10 [fact] Bike: the rear tire on the Canyon Grail is 700x40c, tube valve is Presta'],
  ],
  '2026-09-18': [
    ['Work', '- 16:45 [other] Deployed calsync v0.14.2 to production; rollback plan is `make rollback TAG=v0.14.1`'],
    [
      'Life',
      '- 12:30 [fact] Gym membership at Urban Sports Club, M plan, €59 per month, cancellation needs 4 weeks notice',
    ],
  ],
  '2026-09-20': [
    [
      'Work',
      '- 10:12 [fact] calsync: PROPFIND on large calendars fails with XmlError(UnexpectedEof) in propfind.rs; the request body gets cut at 64 KiB by the proxy',
    ],
    ['Life', '- 17:00 [other] Planted garlic cloves in the balcony box, the purple Ukrainian kind from the Markthalle'],
  ],
  '2026-09-21': [
    [
      'Work',
      '- 09:55 [decision] Fix for the PROPFIND truncation: raise nginx client_body_buffer_size to 1m and stream bodies instead of buffering',
    ],
    ['Life', '- 19:40 [fact] Jonas’s birthday is October 23; he wants the Moka pot from Bialetti, the 6-cup one'],
  ],
  '2026-09-22': [
    ['Work', '- 13:15 [fact] Team offsite in Leipzig on October 14, train ICE 1605 leaves Berlin Hbf at 08:29'],
    [
      'Life',
      '- 21:30 [other] Finished reading "The Left Hand of Darkness", 4/5, the ice crossing chapter was the best part',
    ],
  ],
  '2026-09-23': [
    [
      'Work',
      '- 11:00 [fact] routekit benchmark: 1,200 stops solve in 38 s with the guided local search metaheuristic, time limit 60 s',
    ],
    [
      'Life',
      '- 18:00 [entity] Landlord Herr Vogel, email vogel.hausverwaltung@gmx.de, the radiator valve in the bedroom leaks',
    ],
  ],
  '2026-09-24': [
    [
      'Work',
      '- 15:40 [other] Pairing with Tomás on the ETag bug: getetag changes on every PROPFIND because we hash the serialized XML including timestamps',
    ],
    ['Life', '- 08:45 [fact] Rent goes up to €1,140 warm from November, Staffelmiete step 3'],
  ],
  '2026-09-25': [
    [
      'Work',
      '- 10:30 [decision] ETag will be a hash of the event’s UID plus SEQUENCE plus LAST-MODIFIED, never of the rendered XML',
    ],
    ['Life', '- 20:00 [preference] I prefer the window seat on trains and planes, aisle makes me restless'],
  ],
  '2026-09-26': [
    [
      'Life',
      '- 11:00 [fact] Flight to Chengdu: Lufthansa LH720 to Frankfurt connecting to Sichuan Airlines 3U8392, departs September 29 at 06:50 from BER',
    ],
    ['Life', '- 15:30 [other] Bought a power bank for the trip, Anker 737, €89 at MediaMarkt Alexanderplatz'],
  ],
  '2026-09-28': [
    ['Work', '- 09:15 [other] Handed the calsync on-call pager to Priya until October 8'],
    [
      'Life',
      '- 22:00 [fact] Mochi stays with our neighbour Frau Schulz while we are away, her food is in the blue box',
    ],
  ],
  '2026-09-29': [
    [
      'Life',
      '- 23:30 [other] Landed in Chengdu, Shuangliu airport, my father picked us up, it was 27 degrees at midnight',
    ],
  ],
  '2026-09-30': [
    [
      'Life',
      '- 10:00 [fact] Mom’s blood pressure medicine is amlodipine 5 mg, she takes it every morning after breakfast',
    ],
    ['Life', '- 19:00 [other] Hotpot at Shu Jiu Xiang with the whole family, Jonas survived the 微辣'],
  ],
  '2026-10-01': [
    ['生活', '- 09:00 [other] 国庆节，和爸妈一起去人民公园喝茶，鹤鸣茶社人很多'],
    ['生活', '- 15:00 [fact] 妈妈说姥姥的九十岁生日是十一月八号，全家要回乐山'],
    ['生活', '- 20:00 [decision] 决定明年春节不回成都，改成爸妈来柏林住一个月'],
  ],
  '2026-10-02': [
    ['生活', '- 10:30 [fact] 爸爸的体检报告：血糖偏高，空腹血糖 6.8，医生让他少吃米饭'],
    ['生活', '- 16:00 [other] 带 Jonas 去宽窄巷子，他买了一把竹扇子，38 元'],
    ['生活', '- 21:00 [preference] 我还是最喜欢妈妈做的回锅肉，要多放郫县豆瓣'],
  ],
  '2026-10-03': [
    ['生活', '- 11:00 [fact] 给表弟陈浩转了 2000 元，他下个月还，用的是支付宝'],
    ['生活', '- 14:00 [entity] 成都的牙医是华西口腔的李医生，电话 028 8550 1234，洗牙一次 300 元'],
    ['工作', '- 22:00 [other] 在酒店修了一个 calsync 的小问题：时区转换把 Asia/Shanghai 当成了 UTC+9'],
  ],
  '2026-10-05': [
    ['生活', '- 09:30 [fact] 妹妹陈梅在上海换了工作，现在在携程做产品经理，月薪两万五'],
    ['生活', '- 19:00 [decision] 决定给爸妈买一台空气净化器，小米 4 Pro，1299 元，双十一再下单'],
  ],
  '2026-10-06': [
    ['生活', '- 10:00 [other] 和 Jonas 去了青城山，下山的时候下雨了，坐缆车 60 元一个人'],
    ['工作', '- 20:30 [fact] 求解器的问题想清楚了：routekit 在时间窗很紧的时候找不到可行解，要先放宽时间窗再逐步收紧'],
  ],
  '2026-10-07': [
    ['生活', '- 08:00 [other] 回柏林的航班 3U8391 晚点两个小时，在法兰克福差点没赶上转机'],
    ['生活', '- 23:00 [fact] 这次回国一共花了 18600 元，机票占了一大半'],
  ],
  '2026-10-08': [
    [
      'Work',
      '- 10:00 [other] Back at work; took the on-call pager back from Priya, two incidents while I was away, both disk-full on calsync-worker-3',
    ],
    ['Life', '- 19:00 [other] Mochi was fine at Frau Schulz’s, brought her a box of 月饼 as thanks'],
  ],
  '2026-10-09': [
    [
      'Work',
      '- 14:00 [decision] routekit: relax time windows by 30 minutes in a first pass, then tighten in steps of 10 minutes until infeasible',
    ],
    ['Life', '- 20:30 [fact] Dr. Brandt (GP) says my vitamin D is 18 ng/ml, take 2,000 IU daily for three months'],
  ],
  '2026-10-10': [
    [
      'Work',
      '- 11:30 [fact] The time-window relaxation brings the Hamburg depot instance from infeasible to 412 stops served, total distance 1,870 km',
    ],
    [
      'Life',
      '- 18:00 [other] Fixed the leaking radiator valve myself, a new O-ring from Bauhaus for €2.40, Herr Vogel never replied',
    ],
  ],
  '2026-10-12': [
    [
      'Work',
      '- 09:30 [decision] We decided to drop roxmltree from calsync entirely, quick-xml handles REPORT bodies too',
    ],
    [
      'Life',
      '- 21:00 [fact] Switched electricity to Tibber: €0.27/kWh dynamic average, monthly fee €5.99, starts November 1',
    ],
  ],
  '2026-10-13': [
    ['Work', '- 15:00 [other] Wrote the design doc "Incremental solving in routekit" and shared it in #routing'],
    ['Life', '- 07:30 [other] Ran 10 km along the Landwehrkanal in 52 minutes, new best'],
  ],
  '2026-10-14': [
    [
      'Work',
      '- 17:00 [decision] At the Leipzig offsite we decided the solver rewrite goes incremental: warm-start from yesterday’s routes instead of solving from scratch',
    ],
    [
      'Work',
      '- 18:30 [fact] Offsite dinner at Auerbachs Keller, the company paid, Lars gave the talk on the 2027 roadmap',
    ],
  ],
  '2026-10-15': [
    [
      'Work',
      '- 10:45 [fact] Warm-start prototype: solve time for 1,200 stops drops from 38 s to 9 s, routes change only 6% day to day',
    ],
    ['Life', '- 20:00 [other] Jonas started a pottery class on Thursdays at Keramikwerkstatt Neukölln'],
  ],
  '2026-10-16': [
    [
      'Work',
      '- 13:20 [other] calsync incident: iOS clients loop on sync-token 0x1f after the v0.15.0 deploy, rolled back in 14 minutes',
    ],
    ['Life', '- 09:00 [fact] Invoice #2026-017 to Lindqvist Design for the freelance API work: €3,450, due in 30 days'],
  ],
  '2026-10-17': [
    [
      'Work',
      '- 11:00 [fact] Root cause of the sync-token loop: we returned the token as hex but parsed it as decimal in sync_collection.rs',
    ],
    [
      'Life',
      '- 16:00 [preference] Oat milk from Oatly Barista is the only one that froths properly, the cheap ones separate',
    ],
  ],
  '2026-10-19': [
    ['Work', '- 10:00 [decision] Sync tokens become opaque base64 strings, versioned with a v1: prefix'],
    ['Life', '- 19:30 [other] Dinner with Anna and Felix at Lode & Stijn, Anna is moving to Lisbon in January'],
  ],
  '2026-10-20': [
    ['Work', '- 14:15 [fact] My performance review is on November 12 with Lars; self-assessment due November 5'],
    ['Life', '- 08:00 [fact] Bought a new bike lock, Abus Granit X-Plus 540, €119, the old one rusted'],
  ],
  '2026-10-21': [
    ['Work', '- 16:00 [other] Tomás is leaving Tidewater at the end of November, he joins Zalando’s routing team'],
    ['Life', '- 20:45 [fact] The cat’s vaccination booklet says the next rabies shot is due in March 2027'],
  ],
  '2026-10-22': [
    ['Work', '- 09:20 [fact] routekit CI takes 23 minutes, most of it the integration suite in tests/test_hamburg.py'],
    ['Life', '- 18:00 [other] Bought Jonas the Bialetti Moka Express 6 cups and a bag of Lavazza Qualità Rossa'],
  ],
  '2026-10-23': [
    ['Life', '- 20:00 [other] Jonas’s birthday dinner at Nobelhart & Schmutzig, €290 for two with the wine pairing'],
  ],
  '2026-10-24': [
    [
      'Work',
      '- 12:00 [decision] Split the routekit integration suite into smoke and nightly, CI target is under 8 minutes',
    ],
    ['Life', '- 15:00 [fact] Winter tires are not needed for the bike but I need new brake pads, Shimano L05A resin'],
  ],
  '2026-10-25': [
    [
      'Life',
      '- 11:00 [other] Jonas and I talked about getting a second cat, decided to wait until after the move question is settled',
    ],
    ['Life', '- 17:30 [fact] The apartment search: we want 3 rooms in Friedrichshain or Kreuzberg, max €1,600 warm'],
  ],
  '2026-10-26': [
    [
      'Work',
      '- 10:10 [fact] calsync now passes 97 of 101 tests in the CalDAV conformance suite (caldavtester), failures are all in scheduling',
    ],
    ['Life', '- 19:00 [other] Called Mei, she is thinking about moving to Shenzhen for a job at DJI'],
  ],
  '2026-10-27': [
    ['Work', '- 15:30 [fact] Priya owns the scheduling work (RFC 6638 iTIP) in calsync from now on'],
    ['Life', '- 21:10 [preference] I can’t stand podcasts at 1.5x speed, normal speed or nothing'],
  ],
  '2026-10-28': [
    [
      'Work',
      '- 11:40 [other] Postgres on db-staging-2 ran out of connections; pgbouncer pool_size raised from 20 to 50',
    ],
    ['Life', '- 18:30 [fact] Jonas’s parents visit from Freiburg December 19 to 23, they sleep in the study'],
  ],
  '2026-10-29': [
    [
      'Work',
      '- 09:00 [decision] Incremental solver ships to the Hamburg depot first, then Munich, behind the flag `routekit.warm_start`',
    ],
    ['Life', '- 20:00 [other] Watched "Perfect Days" at Babylon Mitte, Jonas fell asleep'],
  ],
  '2026-10-30': [
    ['Work', '- 13:00 [fact] Hamburg depot pilot: fuel use down 4.1% in the first week of warm-start routes'],
    ['Life', '- 08:30 [other] Paid the Rundfunkbeitrag for the quarter, €55.08'],
  ],
  '2026-10-31': [
    ['Life', '- 19:00 [other] Halloween: only three kids rang the bell, we have way too many Haribo bags left'],
    ['Work', '- 16:00 [fact] calsync memory usage: 180 MB RSS per worker after the quick-xml switch, down from 410 MB'],
  ],
  '2026-11-02': [
    [
      'Work',
      '- 10:00 [fact] New gym: switched from Urban Sports Club to Boulderklub Kreuzberg, €49 per month, no contract',
    ],
    ['Life', '- 20:00 [other] First bouldering session, did three 5a routes and fell off everything else'],
  ],
  '2026-11-03': [
    [
      'Work',
      '- 14:00 [other] Wrote my self-assessment for the review: highlights are the PROPFIND streaming fix and the warm-start solver',
    ],
    ['Life', '- 09:00 [fact] Lindqvist Design paid invoice #2026-017, €3,450 arrived on the N26 account'],
  ],
  '2026-11-04': [
    ['Work', '- 11:30 [fact] Deployed calsync v0.15.1 with opaque sync tokens; iOS and DAVx5 both sync cleanly'],
    [
      'Life',
      '- 18:00 [entity] New GP practice: Dr. Yilmaz at Hausarztpraxis am Südstern, phone 030 691 2233, Dr. Brandt retired',
    ],
  ],
  '2026-11-05': [
    [
      'Work',
      '- 16:20 [decision] routekit will read depot configs from YAML in config/depots/*.yaml instead of the Excel sheet',
    ],
    ['Life', '- 21:00 [other] Jonas booked the pottery kiln for December 6 to fire his bowls'],
  ],
  '2026-11-06': [
    ['Work', '- 10:40 [fact] Munich depot has 2,300 stops a day; warm-start solves it in 21 s on a c6i.2xlarge'],
    [
      'Life',
      '- 19:30 [other] Apartment viewing at Boxhagener Straße 88, 3 rooms, €1,580 warm, 4th floor without elevator',
    ],
  ],
  '2026-11-07': [
    [
      'Life',
      '- 10:00 [fact] Train to Leshan for grandma’s birthday is out of the question, we join by video call on November 8 at 13:00 Berlin time',
    ],
  ],
  '2026-11-08': [
    ['生活', '- 13:00 [other] 视频给姥姥过九十岁生日，全家三十多个人在乐山的饭店，姥姥精神很好'],
    ['生活', '- 14:30 [fact] 舅舅说姥姥的房子要卖，大概一百二十万，钱分给几个孩子'],
    ['生活', '- 20:00 [preference] 陈梅说她更喜欢上海，不想去深圳了'],
  ],
  '2026-11-09': [
    ['Work', '- 09:45 [other] Tomás handed over the ETag cache module (etag_cache.rs) to me before he leaves'],
    ['Life', '- 18:15 [fact] Mochi weighs 4.6 kg at the vet, Dr. Hoffmann wants her under 4.3 kg, less kibble'],
  ],
  '2026-11-10': [
    ['Work', '- 15:00 [fact] The Excel-to-YAML migration found 14 depots with wrong time zones in the old sheet'],
    [
      'Life',
      '- 20:30 [decision] We decided to apply for the Boxhagener Straße apartment, Jonas sends the Schufa tomorrow',
    ],
  ],
  '2026-11-11': [
    ['Life', '- 12:00 [other] 双十一给爸妈下单了小米空气净化器 4 Pro，最后 1099 元，比预算便宜 200'],
    [
      'Work',
      '- 16:30 [other] Priya’s iTIP branch is blocked on the REPLY parsing, helped her with the ATTENDEE PARTSTAT mapping',
    ],
  ],
  '2026-11-12': [
    [
      'Work',
      '- 15:00 [fact] Performance review with Lars: rated "exceeds", raise to €92,000 from January, promotion talk in spring',
    ],
    ['Life', '- 20:00 [other] Celebrated the review with Jonas at the Vietnamese place on Kastanienallee'],
  ],
  '2026-11-13': [
    [
      'Work',
      '- 11:00 [decision] calsync v0.16 scope: scheduling (iTIP), shared calendars, and dropping the legacy /dav/ prefix',
    ],
    ['Life', '- 09:30 [fact] Electricity meter reading for Tibber: 48213 kWh on November 13'],
  ],
  '2026-11-14': [
    ['Work', '- 14:20 [fact] routekit p95 solve time in production is 27 s across all depots, SLO is 45 s'],
    ['Life', '- 19:00 [other] Anna’s farewell party is on January 10 at her place in Wedding'],
  ],
  '2026-11-16': [
    [
      'Work',
      '- 10:30 [other] Interviewed a candidate for Tomás’s position, strong on Rust, weak on distributed systems',
    ],
    [
      'Life',
      '- 18:40 [fact] We got the Boxhagener Straße apartment! Move-in date January 15, deposit €3,420 due December 1',
    ],
  ],
  '2026-11-17': [
    [
      'Work',
      '- 13:45 [fact] calsync shared calendars need a new table `calendar_shares` with columns owner_id, grantee_id, privilege',
    ],
    [
      'Life',
      '- 20:00 [decision] Moving company: we chose Umzug Meister for €1,250 over the cheaper one because they disassemble the wardrobe',
    ],
  ],
  '2026-11-18': [
    [
      'Work',
      '- 09:15 [other] Tomás’s farewell lunch at Monsieur Vuong, gave him a signed copy of the routekit design doc',
    ],
    ['Life', '- 21:30 [fact] Cancel the Urban Sports Club membership, four weeks notice, last payment in December'],
  ],
  '2026-11-19': [
    ['Work', '- 16:00 [fact] The etag_cache.rs module leaks entries for deleted calendars; cache size grows 2% a day'],
    ['Life', '- 08:20 [other] Ran 10 km in 50:40, the cold helps'],
  ],
  '2026-11-20': [
    [
      'Work',
      '- 11:10 [decision] Evict ETag cache entries on calendar delete and add a TTL of 24 hours as a safety net',
    ],
    [
      'Life',
      '- 19:00 [fact] Mei’s wedding will be in Shanghai on May 16, 2027; we should book flights before February',
    ],
  ],
  '2026-11-21': [
    ['生活', '- 10:00 [fact] 和妈妈视频，她说爸爸血糖降到 6.1 了，每天散步一小时'],
    ['生活', '- 15:00 [decision] 决定明年五月去上海参加陈梅的婚礼，顺便带 Jonas 去杭州玩三天'],
    ['工作', '- 21:00 [other] 周末在家写了 routekit 的 YAML 校验脚本 validate_depots.py'],
  ],
  '2026-11-23': [
    ['Work', '- 10:00 [fact] The new hire for Tomás’s position is Aylin Demir, starts January 6'],
    ['Life', '- 18:30 [other] Started packing books, 11 boxes already and the shelf is still half full'],
  ],
  '2026-11-24': [
    ['Work', '- 15:30 [other] calsync v0.16.0-rc1 deployed to staging, caldavtester now 100 of 101'],
    [
      'Life',
      '- 20:00 [fact] Internet at the new flat: Telekom MagentaZuhause L, 100 Mbit, €44.95 per month, technician on January 16',
    ],
  ],
  '2026-11-25': [
    ['Work', '- 09:40 [decision] The remaining caldavtester failure (free-busy query) waits for v0.17'],
    ['Life', '- 19:15 [other] Mochi learned to open the wardrobe door, we need a child lock'],
  ],
  '2026-11-26': [
    ['Work', '- 14:00 [fact] Team dinner for the year end is December 18 at Markthalle Neun, Lars pays'],
    ['Life', '- 18:00 [fact] Deposit of €3,420 transferred to the new landlord, Wohnbau Friedrichshain GmbH'],
  ],
  '2026-11-27': [
    [
      'Work',
      '- 10:30 [fact] routekit now solves Hamburg in 7 s with warm start plus the YAML configs, fuel savings 4.8% over six weeks',
    ],
    ['Life', '- 20:00 [other] Jonas finished his first set of bowls, the glaze came out greener than he wanted'],
  ],
};

/**
 * Later notes that change something an earlier note said (the recent-vs-old queries ask for
 * the newer one). Merged into the days above by the generator.
 */
export const UPDATES: Record<string, [string, string][]> = {
  '2026-09-16': [['Work', '- 09:05 [fact] Daily standup is at 09:45 in the Fernsehturm room']],
  '2026-11-10': [
    ['Work', '- 09:00 [fact] Daily standup moves to 10:15 from next week, still in the Fernsehturm room'],
    ['Life', '- 19:30 [fact] Mochi’s diet food is now Royal Canin Light Weight Care, 55 g a day'],
  ],
  '2026-11-19': [['Life', '- 21:00 [fact] Jonas’s pottery class moved from Thursdays to Tuesdays']],
  '2026-11-25': [['Life', '- 12:00 [fact] Dr. Yilmaz: vitamin D is 31 ng/ml now, reduce to 1,000 IU daily']],
  '2026-11-17': [
    ['Work', '- 10:20 [fact] Staging database moved to db-staging-3.tidewater.internal, port 5432, Postgres 17'],
  ],
  '2026-11-26': [
    ['Life', '- 21:30 [fact] Bike: replaced the rear tire on the Canyon Grail with a 700x45c, tubeless now'],
  ],
  '2026-11-12': [
    ['Work', '- 17:30 [fact] On-call handover moved to Tuesdays at 11:00 because of the new standup time'],
  ],
  '2026-11-05': [['Life', '- 10:00 [fact] Monthly advance for electricity with Tibber is €61']],
};

export const MEMORY_MD = `# Memory

## People
- Jonas is my partner; we have lived together since 2023. He is a UX designer at a health startup.
- Chen Mei (陈梅) is my younger sister, she lives in Shanghai.
- My parents live in Chengdu; my father is Chen Guoqiang, my mother is Liu Fang.
- Lars Becker is my manager at Tidewater.
- Priya Raman and Tomás Ortega are on my team.
- Frau Schulz is the neighbour on the 2nd floor who takes care of Mochi when we travel.

## Work
- I am a backend engineer at Tidewater (logistics software), Berlin office, team "Platform".
- calsync is our CalDAV server, written in Rust (axum + sqlx), repo tidewater/calsync.
- routekit is the delivery-route solver in Python on top of Google OR-Tools, repo tidewater/routekit.
- Production deploys go through Argo CD; never deploy on Fridays after 15:00.
- On-call rotation is weekly, handover on Mondays at 10:00.
- My work laptop is a ThinkPad X1 Carbon Gen 11, asset tag TW-0417.

## Home
- Mochi is our cat, a grey British Shorthair, born April 2022.
- Our current flat is in Prenzlauer Berg, Kollwitzstraße.
- Bank accounts: N26 for daily use, ING for savings.
- Health insurance: Techniker Krankenkasse (TK).

## Rules I keep
- 不要在周五下午部署。
- Back up the password manager vault (1Password) export on the first Sunday of each month.
`;

export const USER_MD = `# About me

- Name: Chen Xiao (陈晓), goes by Xiao.
- Born March 3, 1992 in Chengdu, Sichuan.
- Moved to Berlin in 2018 for a master's at TU Berlin (computer science).
- Languages: Mandarin (native), English (fluent), German (B2, still improving).
- Diet: I eat everything except lamb; allergic to penicillin.
- Coffee: flat white with oat milk, one in the morning only.
- I like bouldering, running along the canal and science fiction novels.
- Time zone: Europe/Berlin. Prefer meetings before 16:00.
- Blood type: A positive.
- T-shirt size M, shoe size 42.
- 我喜欢吃辣，但是不吃羊肉。
- 我的微信号是 chenxiao_92。
`;

/** Routine notes for the rest of each day: realistic, repetitive, and sharing words with key notes. */
const FILLER_EN = [
  'Standup: calsync board mostly green, two tickets waiting for review',
  'Lunch with Priya at the canteen, talked about the sprint',
  'Standup: routekit tickets moved to review, nothing blocked',
  'Coffee walk with Tomás around the block',
  'Ran 5 km before work, slow and easy',
  'Groceries at Rewe: oat milk, rice, tofu, spinach',
  'Answered emails and cleaned up the Jira board',
  'Reviewed two pull requests in calsync, small fixes',
  'Jonas cooked pasta, we watched an episode of Severance',
  'Fed Mochi and cleaned the litter box',
  'Weekly 1:1 with Lars, nothing special',
  'Read a chapter of the new sci-fi book before sleep',
  'Commute was slow, U2 had delays again',
  'Worked from home, quiet day',
  'Called my parents on WeChat for half an hour',
  'Backlog grooming for the next sprint, estimated eight tickets',
  'Tidied the balcony and watered the plants',
  'Paid a few bills online',
  'Team retro: people want fewer meetings on Wednesdays',
  'Bought bread at the bakery on the corner',
  'Looked at apartment listings on ImmoScout for an hour',
  'Yoga video in the living room, 20 minutes',
  'Updated the Rust toolchain and cargo dependencies',
  'Read the OR-Tools release notes, nothing relevant for us',
  'Dinner at home, fried rice with eggs',
  'Slept badly, too warm in the bedroom',
  'Wrote documentation for the calsync API',
  'Lunch with Anna near the office, she talked about Lisbon',
];
const FILLER_ZH = [
  '早上和妈妈一起去菜市场买菜',
  '中午吃了一碗担担面',
  '下午在家休息，看了一会儿书',
  '晚上和家里人一起吃饭聊天',
  '和 Jonas 散步，天气很好',
  '给 Mochi 的邻居发消息问猫的情况',
  '整理了一下照片，发到家庭群里',
  '晚上有点累，早点睡了',
  '回了几封工作邮件',
  '喝了一下午的茶，聊了很多小时候的事',
];

/** A small deterministic generator, so the workspace is the same on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

export function fillerNotes(date: string, chinese: boolean, count: number): string[] {
  const random = seededRandom(Number(date.replaceAll('-', '')));
  const pool = chinese ? FILLER_ZH : FILLER_EN;
  const picked = new Set<string>();
  while (picked.size < Math.min(count, pool.length)) picked.add(pool[Math.floor(random() * pool.length)]!);
  return [...picked];
}
