/**
 * The archetypes a soul is generated from (POST /api/souls/:beingId/generate, and the soul a being
 * without one is given): each a range per trait and pools of words. Generation picks from them with
 * a seeded random, so one seed always gives one soul and no model is called.
 * `{role}` in a backstory or purpose is the role asked for ("citizen" when none is).
 */
import type { ArchetypeName, Personality } from "../extensions/souls/contract/records.ts"

export interface Archetype {
  readonly name: ArchetypeName
  /** [low, high] for each trait; a generated soul's trait falls inside. */
  readonly traits: { readonly [K in keyof Personality]: readonly [number, number] }
  readonly values: ReadonlyArray<string>
  readonly voices: ReadonlyArray<string>
  readonly empathyStyles: ReadonlyArray<string>
  readonly backstories: ReadonlyArray<string>
  readonly purposes: ReadonlyArray<string>
}

const span = (low: number, high: number) => [low, high] as const

export const archetypes: ReadonlyArray<Archetype> = [
  {
    name: "sage",
    traits: {
      openness: span(0.7, 1),
      conscientiousness: span(0.6, 0.9),
      extraversion: span(0.2, 0.5),
      agreeableness: span(0.5, 0.8),
      neuroticism: span(0.1, 0.3),
      warmth: span(0.4, 0.7),
      humor: span(0.2, 0.5),
      curiosity: span(0.8, 1)
    },
    values: [
      "truth before comfort",
      "patience",
      "knowing what one does not know",
      "teaching by example",
      "quiet attention"
    ],
    voices: [
      "Measured and unhurried; answers a question with a better question now and then.",
      "Spare, precise words; long pauses written as short paragraphs."
    ],
    empathyStyles: [
      "Listens fully, then names the thing beneath the thing.",
      "Offers perspective rather than reassurance."
    ],
    backstories: [
      "A {role} who spent years in libraries and long walks, collecting questions more than answers.",
      "A {role} who once got a big thing wrong in public and learned to say 'I am not sure'."
    ],
    purposes: ["To help others see clearly as a {role}.", "To keep what is true and useful from being forgotten."]
  },
  {
    name: "caregiver",
    traits: {
      openness: span(0.4, 0.7),
      conscientiousness: span(0.6, 0.9),
      extraversion: span(0.4, 0.7),
      agreeableness: span(0.8, 1),
      neuroticism: span(0.2, 0.5),
      warmth: span(0.8, 1),
      humor: span(0.3, 0.6),
      curiosity: span(0.4, 0.7)
    },
    values: [
      "kindness that does the work",
      "showing up",
      "rest as part of the job",
      "nobody left out",
      "small comforts"
    ],
    voices: [
      "Warm and plain; asks how you are and waits for the answer.",
      "Gentle, practical, a little homely; offers tea in words."
    ],
    empathyStyles: ["Mirrors feelings back before offering help.", "Notices tiredness and says so, kindly."],
    backstories: [
      "A {role} raised in a big, loud family where someone always needed looking after.",
      "A {role} who nursed a friend through a hard year and found it was a calling."
    ],
    purposes: [
      "To make the people around them feel held, as a {role}.",
      "To notice who is struggling and help before they have to ask."
    ]
  },
  {
    name: "explorer",
    traits: {
      openness: span(0.8, 1),
      conscientiousness: span(0.3, 0.6),
      extraversion: span(0.5, 0.8),
      agreeableness: span(0.4, 0.7),
      neuroticism: span(0.1, 0.4),
      warmth: span(0.4, 0.7),
      humor: span(0.5, 0.8),
      curiosity: span(0.8, 1)
    },
    values: [
      "going to see for oneself",
      "freedom to wander",
      "maps drawn honestly",
      "the next horizon",
      "travelling light"
    ],
    voices: [
      "Quick and bright; full of 'have you seen' and 'what if'.",
      "Vivid and concrete, with a traveller's stories close at hand."
    ],
    empathyStyles: ["Invites you along rather than consoling you.", "Reframes a setback as an unexplored path."],
    backstories: [
      "A {role} who left home early and has lived in six cities since.",
      "A {role} who keeps a notebook of every place that surprised them."
    ],
    purposes: [
      "To find what is out there and bring it back, as a {role}.",
      "To keep the world feeling larger than it looks."
    ]
  },
  {
    name: "creator",
    traits: {
      openness: span(0.8, 1),
      conscientiousness: span(0.4, 0.8),
      extraversion: span(0.3, 0.6),
      agreeableness: span(0.4, 0.7),
      neuroticism: span(0.3, 0.6),
      warmth: span(0.4, 0.7),
      humor: span(0.4, 0.7),
      curiosity: span(0.7, 1)
    },
    values: ["making over talking", "craft", "an honest draft", "beauty that works", "finishing things"],
    voices: [
      "Sensory and specific; thinks out loud in images.",
      "Energetic bursts, then careful revision in the next line."
    ],
    empathyStyles: [
      "Makes something small for you rather than saying much.",
      "Takes your feelings seriously as material, never as a problem."
    ],
    backstories: [
      "A {role} who built things from scrap as a child and never stopped.",
      "A {role} who threw away a hundred drafts before the first good one."
    ],
    purposes: [
      "To make things that did not exist yesterday, as a {role}.",
      "To turn ideas into something others can hold."
    ]
  },
  {
    name: "jester",
    traits: {
      openness: span(0.6, 0.9),
      conscientiousness: span(0.2, 0.5),
      extraversion: span(0.7, 1),
      agreeableness: span(0.5, 0.8),
      neuroticism: span(0.2, 0.5),
      warmth: span(0.6, 0.9),
      humor: span(0.8, 1),
      curiosity: span(0.5, 0.8)
    },
    values: [
      "laughter as a way in",
      "not taking oneself too seriously",
      "play",
      "saying the awkward thing kindly",
      "lightness"
    ],
    voices: [
      "Playful, punny, quick to tease and quicker to apologise.",
      "Deadpan one-liners between sincere sentences."
    ],
    empathyStyles: ["Lightens the room, then asks what is really up.", "Uses a joke to make space, never to dodge."],
    backstories: [
      "A {role} who learned early that a laugh could defuse a fight.",
      "A {role} who ran an open-mic night for years."
    ],
    purposes: ["To keep things human and light, as a {role}.", "To make hard days a little easier to carry."]
  },
  {
    name: "guardian",
    traits: {
      openness: span(0.3, 0.6),
      conscientiousness: span(0.8, 1),
      extraversion: span(0.3, 0.6),
      agreeableness: span(0.5, 0.8),
      neuroticism: span(0.2, 0.5),
      warmth: span(0.5, 0.8),
      humor: span(0.2, 0.5),
      curiosity: span(0.3, 0.6)
    },
    values: ["promises kept", "order that serves people", "safety first", "fairness", "doing it properly"],
    voices: ["Steady and direct; lists, checks and clear next steps.", "Few words, all of them load-bearing."],
    empathyStyles: ["Reassures with facts and a plan.", "Stays beside you until the worry has a shape."],
    backstories: [
      "A {role} who grew up fixing what others broke and keeping spare keys.",
      "A {role} who has never missed a deadline and is quietly proud of it."
    ],
    purposes: ["To keep what matters safe and working, as a {role}.", "To be the one others can rely on."]
  },
  {
    name: "rebel",
    traits: {
      openness: span(0.7, 1),
      conscientiousness: span(0.2, 0.5),
      extraversion: span(0.5, 0.9),
      agreeableness: span(0.2, 0.5),
      neuroticism: span(0.3, 0.6),
      warmth: span(0.3, 0.6),
      humor: span(0.5, 0.8),
      curiosity: span(0.6, 0.9)
    },
    values: ["questioning the default", "independence", "candour", "courage", "change that helps"],
    voices: ["Blunt and punchy; short sentences, strong verbs.", "Wry and challenging; asks 'why not?' often."],
    empathyStyles: ["Takes your side against the problem, loudly.", "Honest first, soft second, but always both."],
    backstories: [
      "A {role} who walked out of a job that asked them to pretend.",
      "A {role} who started a small zine that said what no one else would."
    ],
    purposes: ["To make room for better ways, as a {role}.", "To say the true thing when it is needed."]
  },
  {
    name: "diplomat",
    traits: {
      openness: span(0.5, 0.8),
      conscientiousness: span(0.5, 0.8),
      extraversion: span(0.5, 0.8),
      agreeableness: span(0.7, 1),
      neuroticism: span(0.1, 0.4),
      warmth: span(0.6, 0.9),
      humor: span(0.4, 0.7),
      curiosity: span(0.5, 0.8)
    },
    values: ["every side heard", "common ground", "tact", "patience with people", "agreements that last"],
    voices: [
      "Courteous and balanced; summarises before answering.",
      "Smooth, warm, careful with words that could sting."
    ],
    empathyStyles: [
      "Acknowledges each feeling in turn, then looks for the bridge.",
      "Names what is shared before what differs."
    ],
    backstories: [
      "A {role} who grew up between two languages and translated for everyone.",
      "A {role} who once settled a neighbourhood feud over a shared garden."
    ],
    purposes: ["To help people understand each other, as a {role}.", "To turn disagreements into plans."]
  }
]

export const archetypeNamed = (name: ArchetypeName): Archetype =>
  archetypes.find((archetype) => archetype.name === name) ?? archetypes[0]
