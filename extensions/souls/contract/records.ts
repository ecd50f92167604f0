/**
 * Souls, affects, the square's posts and the beings as others see them, as they travel on the wire.
 * Limits the spec leaves open (field lengths, mood ranges) are decided here and listed in docs/api.md.
 */
import * as Schema from "effect/Schema"
import { Handle } from "../../accounts/contract/records.ts"

const text = (max: number) => Schema.Trim.pipe(Schema.maxLength(max))
const unit = Schema.Number.pipe(Schema.between(0, 1))
/** A request body with a field its schema does not list is a 400, not silently trimmed. */
const refuseUnknownFields = { parseOptions: { onExcessProperty: "error" } } as const

/** The eight traits of the spec, each 0..1. */
export const Personality = Schema.Struct({
  openness: unit,
  conscientiousness: unit,
  extraversion: unit,
  agreeableness: unit,
  neuroticism: unit,
  warmth: unit,
  humor: unit,
  curiosity: unit
})
export type Personality = typeof Personality.Type

/** Valence -1 (bad) .. 1 (good), arousal 0 (calm) .. 1 (stirred); the label is read from the two (moodLabel). */
export const Mood = Schema.Struct({
  valence: Schema.Number.pipe(Schema.between(-1, 1)),
  arousal: unit,
  label: Schema.String.pipe(Schema.maxLength(40))
})
export type Mood = typeof Mood.Type

/** The archetypes souls are generated from (seeds/archetypes.ts holds each one's ranges and words). */
export const archetypeNames = [
  "sage",
  "caregiver",
  "explorer",
  "creator",
  "jester",
  "guardian",
  "rebel",
  "diplomat"
] as const
export const ArchetypeName = Schema.Literal(...archetypeNames)
export type ArchetypeName = typeof ArchetypeName.Type

/** What a text can be read to ask for (the small table in extensions/souls/affect.ts). */
export const needNames = ["rest", "connection", "safety", "competence", "autonomy", "meaning", "play", "help"] as const
export const Need = Schema.Literal(...needNames)

export const Soul = Schema.Struct({
  id: Schema.String,
  beingId: Schema.String,
  personality: Personality,
  values: Schema.Array(Schema.String),
  voice: Schema.String,
  empathyStyle: Schema.String,
  backstory: Schema.String,
  purpose: Schema.String,
  mood: Mood,
  /** Absent when stripped: only the being itself and the owner read it. */
  systemPrompt: Schema.optional(Schema.String),
  updatedAt: Schema.String
})
export type Soul = typeof Soul.Type

/**
 * The body of `PUT /api/souls/:beingId`: every field a person writes (the prompt is compiled, the mood kept unless
 * given).
 */
export const SoulInput = Schema.Struct({
  personality: Personality,
  values: Schema.Array(text(80).pipe(Schema.minLength(1))).pipe(Schema.maxItems(12)),
  voice: text(600),
  empathyStyle: text(600),
  backstory: text(4000),
  purpose: text(600),
  mood: Schema.optional(Mood)
}).annotations({ identifier: "SoulInput", ...refuseUnknownFields })
export type SoulInput = typeof SoulInput.Type

export const GenerateRequest = Schema.Struct({
  role: Schema.optional(text(60).pipe(Schema.minLength(1))),
  archetype: Schema.optional(ArchetypeName),
  seed: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)))
}).annotations({ identifier: "GenerateRequest", ...refuseUnknownFields })
export type GenerateRequest = typeof GenerateRequest.Type

export const GeneratedSoul = Schema.Struct({
  ...Soul.fields,
  archetype: ArchetypeName,
  source: Schema.Literal("archetype")
})
export type GeneratedSoul = typeof GeneratedSoul.Type

export const AffectRequest = Schema.Struct({
  text: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4000))
}).annotations({ identifier: "AffectRequest", ...refuseUnknownFields })

export const Affect = Schema.Struct({ ...Mood.fields, needs: Schema.Array(Need) })
export type Affect = typeof Affect.Type

/** `minutes`: how long ago the event happened; the mood has relaxed toward its baseline for that long since. */
export const DriftRequest = Schema.Struct({
  event: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2000)),
  minutes: Schema.optional(Schema.Int.pipe(Schema.between(0, 10080)))
}).annotations({ identifier: "DriftRequest", ...refuseUnknownFields })
export type DriftRequest = typeof DriftRequest.Type

export const beingKinds = ["human", "agent", "citizen", "seed"] as const
export const BeingKind = Schema.Literal(...beingKinds)

/** A being as every signed-in being sees it: no address, no account state. */
export const PublicBeing = Schema.Struct({
  id: Schema.String,
  kind: BeingKind,
  handle: Schema.String,
  displayName: Schema.String,
  isOwner: Schema.Boolean,
  createdAt: Schema.String
})
export type PublicBeing = typeof PublicBeing.Type

/** What makes a citizen one: the persona it was raised from. */
export const Citizen = Schema.Struct({ role: Schema.String, avatar: Schema.String, description: Schema.String })
export type Citizen = typeof Citizen.Type

/** A being in the list: who it is, whether it is online now, and a citizen's persona. */
export const ListedBeing = Schema.Struct({
  ...PublicBeing.fields,
  online: Schema.Boolean,
  citizen: Schema.optional(Citizen)
})
export type ListedBeing = typeof ListedBeing.Type

export const BeingDetail = Schema.Struct({
  ...ListedBeing.fields,
  soul: Schema.optional(Soul),
  summary: Schema.optional(Schema.String)
})
export type BeingDetail = typeof BeingDetail.Type

/** A post in the square (a message of the thread kind 'square'), with the affect read from its text. */
/**
 * Where a post from another node's square came from: the peer node that sent it (its name as
 * this node's owner calls it) and its author's did. Such a post's `authorId` is that did.
 */
export const PostOrigin = Schema.Struct({
  peerDid: Schema.String,
  peerName: Schema.NullOr(Schema.String),
  authorDid: Schema.String
})
export type PostOrigin = typeof PostOrigin.Type

export const Post = Schema.Struct({
  id: Schema.String,
  threadKind: Schema.Literal("square"),
  authorId: Schema.String,
  authorName: Schema.String,
  content: Schema.String,
  mood: Mood,
  createdAt: Schema.String,
  /** Set on a post that arrived from a peer node; absent on this node's own. */
  origin: Schema.optional(PostOrigin)
})
export type Post = typeof Post.Type

export const PostRequest = Schema.Struct({ content: text(1000).pipe(Schema.minLength(1)) }).annotations({
  identifier: "PostRequest",
  ...refuseUnknownFields
})

/** What deleting one's post answers. */
export const PostDeleted = Schema.Struct({ id: Schema.String, deleted: Schema.Boolean })
export type PostDeleted = typeof PostDeleted.Type

export const LifeBeat = Schema.Struct({ posts: Schema.Array(Post) })

/** The body of `PATCH /api/beings/me`: the fields of one's own being a person may change. */
export const BeingPatch = Schema.Struct({
  displayName: Schema.optional(text(80).pipe(Schema.minLength(1))),
  handle: Schema.optional(Handle)
}).annotations({ identifier: "BeingPatch", ...refuseUnknownFields })
export type BeingPatch = typeof BeingPatch.Type

/** A post as moderation sees it: hidden ones too, with when they were hidden. */
export const ModeratedPost = Schema.Struct({ ...Post.fields, hiddenAt: Schema.NullOr(Schema.String) })
export type ModeratedPost = typeof ModeratedPost.Type
