import type { ChatFact, ChatKnowledge } from './chat-knowledge.ts';

// Questions about how to reach the company, what it costs and who works there have one right answer
// each in the facts. Retrieval ranks by shared words, so a question that also names another subject
// ("what do you charge for a project", "thanks for the projects, what is your phone?") could get
// that subject's fact instead. These patterns find what is asked; its facts answer it first
// (decision 215).

export type AskedTopic = 'address' | 'contact' | 'prices' | 'people';

const TOPICS: { topic: AskedTopic; pattern: RegExp; factIds: string[] }[] = [
  {
    topic: 'address',
    pattern: /\b((?<!mail )address(es)?|located|location|where (are|is) (you|your)|head ?office|offices?|yard|directions|visit you)\b/i,
    factIds: ['contact-offices'],
  },
  {
    topic: 'contact',
    pattern:
      /\b(phone|telephone|tel|call|ring|mobile|cell|hotline|(phone |contact )?numbers?|whats ?app|e-?mail|mail address|contact|get in touch|reach (you|us|someone|your)|speak to|talk to)\b/i,
    factIds: ['contact-phone-email'],
  },
  {
    topic: 'prices',
    pattern: /\b(prices?|pricing|priced|costs?|costing|(?<!in )charges?|charging|fees?|rates?|how much|quotes?|quotation|estimates?|budget|payments?|pay|afford|expensive|cheap)\b/i,
    factIds: ['payments', 'quote'],
  },
  {
    topic: 'people',
    pattern:
      /\b(who (is|are) (the|your|in charge)|who (runs|owns|leads|manages|heads|founded|works)|team|staff|people|employees|ceo|md|managing director|directors?|managers?|boss|founders?|owners?|chairman|leadership|management)\b/i,
    factIds: ['team'],
  },
];

/** What the question asks about, in the order the question names it (empty when none of these). */
export function askedTopics(question: string): AskedTopic[] {
  return TOPICS.map((t) => ({ topic: t.topic, at: question.search(t.pattern) }))
    .filter((t) => t.at >= 0)
    .sort((a, b) => a.at - b.at)
    .map((t) => t.topic);
}

/** The facts that answer the asked topics, at most `limit`, without repeats. */
export function factsForTopics(knowledge: ChatKnowledge, topics: AskedTopic[], limit = 3): ChatFact[] {
  const ids = [...new Set(topics.flatMap((topic) => TOPICS.find((t) => t.topic === topic)!.factIds))];
  return ids
    .map((id) => knowledge.facts.find((f) => f.id === id))
    .filter((f): f is ChatFact => Boolean(f))
    .slice(0, limit);
}
