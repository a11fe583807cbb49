import { describe, expect, it } from 'vitest';
import { answerKindsAsked, answerKindsStated } from './answer-kinds.js';
import { rawTokens } from './text-tokens.js';

describe('answer kinds', () => {
  it('reads the kinds of value a unit states, not its bullet time stamp', () => {
    expect(answerKindsStated('- 09:00 [fact] Daily standup moves to 10:15 from next week')).toEqual(['time']);
    expect(answerKindsStated('- 09:00 [fact] Lunch with Anna at the canteen')).toEqual([]);
    expect(answerKindsStated('Gym membership: €39 a month')).toEqual(['money']);
    expect(answerKindsStated('paid 1,200 EUR for the bike')).toEqual(['money']);
    expect(answerKindsStated('房租是1580元')).toEqual(['money']);
    expect(answerKindsStated('Mochi weighs 4.6 kg now')).toEqual(['weight']);
    expect(answerKindsStated('10k in 50:40, a new best')).toEqual(['duration']);
    expect(answerKindsStated('solves Hamburg in 7 s')).toEqual(['duration']);
    expect(answerKindsStated('ran 12 km along the canal')).toEqual(['distance']);
    expect(answerKindsStated('dinner at 7pm')).toEqual(['time']);
    expect(answerKindsStated('明天下午3点开会')).toEqual(['time']);
    // Version numbers, ids and plain counts are not values of these kinds.
    expect(answerKindsStated('quick-xml 0.36 and ticket #118, 3 rooms')).toEqual([]);
  });

  it('reads the kinds a question asks for, in English and Chinese', () => {
    const asked = (query: string) => answerKindsAsked(rawTokens(query)).map((entry) => entry.kind);
    expect(asked('standup time')).toEqual(['time', 'duration']);
    expect(asked('how much does my gym cost')).toEqual(['money']);
    expect(asked('how heavy is the cat')).toEqual(['weight']);
    expect(asked('猫的体重')).toEqual(['weight']);
    expect(asked('会议几点开始')).toEqual(['time']);
    expect(asked('who looks after the cat')).toEqual([]);
  });
});
