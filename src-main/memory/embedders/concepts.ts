import { cjkBigrams, stem } from '../text-tokens.js';

/**
 * A small hand-written concept table: words that mean the same thing to a personal
 * assistant share one extra hashed feature, which is what lets an offline embedder
 * match paraphrases ("physician appointment" → "doctor visit") without a model.
 * Chinese entries are split into bigrams the same way the embedder splits text.
 */
const GROUPS: string[][] = [
  ['doctor', 'physician', 'clinic', 'gp', 'hospital', 'medical', '医生', '医院', '看病'],
  ['dentist', 'dental', 'teeth', 'tooth', '牙医', '牙齿'],
  ['wife', 'husband', 'spouse', 'partner', '妻子', '老婆', '丈夫', '老公'],
  ['kid', 'child', 'children', 'son', 'daughter', '孩子', '儿子', '女儿'],
  ['mother', 'mom', 'mum', '妈妈', '母亲'],
  ['father', 'dad', '爸爸', '父亲'],
  ['birthday', 'born', '生日'],
  ['anniversary', 'wedding', '纪念日', '婚礼'],
  ['coffee', 'espresso', 'latte', 'cappuccino', '咖啡'],
  ['tea', 'matcha', '茶', '绿茶', '红茶'],
  ['drink', 'beverage', 'coffee', 'tea', 'juice', 'soda', '饮料', '喝'],
  ['food', 'meal', 'eat', 'dinner', 'lunch', 'breakfast', 'cuisine', '吃饭', '晚饭', '午饭', '早饭', '食物'],
  ['vegetarian', 'vegan', 'meat', '素食', '吃素'],
  ['allergy', 'allergic', 'intolerant', '过敏'],
  ['like', 'love', 'enjoy', 'prefer', 'favorite', 'favourite', 'fond', '喜欢', '偏好', '爱好'],
  ['hate', 'dislike', 'avoid', 'detest', '讨厌', '不喜欢'],
  ['decide', 'decision', 'chose', 'choose', 'pick', 'settle', '决定', '选择'],
  ['meeting', 'meet', 'call', 'sync', 'standup', '会议', '开会'],
  ['deadline', 'due', 'submit', '截止', '期限'],
  ['travel', 'trip', 'flight', 'fly', 'vacation', 'holiday', 'journey', '旅行', '旅游', '出差', '航班'],
  ['car', 'vehicle', 'drive', 'automobile', '汽车', '开车'],
  ['house', 'home', 'apartment', 'flat', 'address', 'live', '住址', '地址', '房子'],
  ['job', 'work', 'employer', 'company', 'office', 'career', '工作', '公司'],
  ['boss', 'manager', 'supervisor', '老板', '经理', '领导'],
  ['colleague', 'coworker', 'teammate', '同事'],
  ['friend', 'buddy', 'pal', '朋友'],
  ['phone', 'mobile', 'cell', 'number', '电话', '手机', '号码'],
  ['email', 'mail', 'inbox', '邮件', '邮箱'],
  ['password', 'credential', 'login', '密码'],
  ['money', 'budget', 'cost', 'price', 'expense', 'spend', '钱', '预算', '费用'],
  ['salary', 'pay', 'income', 'wage', '工资', '收入'],
  ['exercise', 'workout', 'gym', 'run', 'jog', 'fitness', '锻炼', '健身', '跑步'],
  ['sleep', 'bed', 'nap', 'insomnia', '睡觉', '睡眠'],
  ['language', 'programming', 'code', 'coding', 'python', 'rust', 'typescript', '编程', '代码'],
  ['bug', 'error', 'crash', 'issue', 'defect', '错误', '故障'],
  ['deploy', 'release', 'ship', 'launch', '发布', '上线'],
  ['book', 'novel', 'read', 'reading', '书', '读书', '阅读'],
  ['movie', 'film', 'cinema', '电影'],
  ['music', 'song', 'band', 'concert', '音乐', '歌'],
  ['pet', 'dog', 'cat', 'puppy', 'kitten', '宠物', '狗', '猫'],
  ['weather', 'rain', 'snow', 'sunny', '天气', '下雨'],
  ['city', 'town', 'paris', 'london', 'berlin', 'tokyo', 'beijing', 'shanghai', '城市', '北京', '上海'],
  ['sick', 'ill', 'flu', 'cold', 'fever', '生病', '感冒', '发烧'],
  ['medicine', 'medication', 'pill', 'drug', 'prescription', '药'],
  ['remember', 'remind', 'reminder', 'note', 'recall', '记住', '记下', '提醒'],
  ['important', 'critical', 'crucial', 'essential', '重要'],
  ['always', 'every', 'usually', 'habit', '总是', '每天', '习惯'],
  ['never', '从不', '绝不'],
  ['morning', 'am', 'dawn', '早上', '上午'],
  ['evening', 'night', 'pm', 'tonight', '晚上'],
  ['week', 'weekly', 'weekend', '周末', '星期'],
  ['school', 'university', 'college', 'class', 'course', '学校', '大学', '课'],
  ['name', 'called', 'nickname', '名字', '叫'],
  ['gift', 'present', '礼物'],
  ['plan', 'schedule', 'calendar', 'appointment', 'booking', 'reservation', '计划', '安排', '预约'],
  ['buy', 'purchase', 'order', 'shop', '买', '购买'],
  ['team', 'group', 'squad', '团队'],
];

const table = new Map<string, string[]>();
GROUPS.forEach((group, index) => {
  for (const entry of group) {
    const keys = /^[a-z]+$/.test(entry) ? [stem(entry)] : cjkBigrams(entry);
    for (const key of keys) table.set(key, [...(table.get(key) ?? []), `g${index}`]);
  }
});

const NONE: readonly string[] = [];

/** The concepts a (stemmed) word, CJK bigram or lone CJK character belongs to. */
export function conceptsOf(term: string): readonly string[] {
  return table.get(term) ?? NONE;
}
