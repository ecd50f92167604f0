/**
 * What threads and the Muse need of features they do not own, as ports the host binds
 * (extensions/threads/feature.ts): beings' names, the caller's uploads (named and read), the being's soul, memories and
 * profile, and whether a being is online.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Refusal } from "../../kernel/contract/errors.ts"
import type { AttachmentNotFound, AttachmentNotUpload } from "./contract/errors.ts"
import type { Attachment } from "./contract/records.ts"

export interface ThreadBeing {
  readonly id: string
  readonly displayName: string
}

export class ThreadBeings extends Context.Tag("threads/ThreadBeings")<
  ThreadBeings,
  {
    readonly find: (id: string) => Effect.Effect<Option.Option<ThreadBeing>>
    /** The beings of these ids that exist, in one read (the titles of a page of threads). */
    readonly findMany: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<ThreadBeing>>
  }
>() {}

/**
 * An attachment as the Muse reads it: its words (a text file as written, a PDF as markdown, at
 * most the characters asked for), an image it cannot see, or why it could not be read.
 */
export type AttachmentReading =
  | { readonly kind: "text"; readonly text: string; readonly truncated: boolean }
  | { readonly kind: "image" }
  | { readonly kind: "unreadable"; readonly reason: string }

export class ThreadAttachments extends Context.Tag("threads/ThreadAttachments")<
  ThreadAttachments,
  {
    /**
     * Each id as one of the being's own uploads; anything else (another's, a project file, none) is
     * refused, and a 400 of the files feature's open (a malformed id) passes through.
     */
    readonly resolve: (
      beingId: string,
      fileIds: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyArray<Attachment>, AttachmentNotUpload | AttachmentNotFound | Refusal<400>>
    /**
     * One of the being's own uploads read for the Muse, at most `maxChars` of it; never fails (unreadable says why).
     */
    readonly read: (beingId: string, fileId: string, maxChars: number) => Effect.Effect<AttachmentReading>
  }
>() {}

export interface MuseContextShape {
  /** The name the being chose for its Muse (the twin profile's `museName` preference), or "Muse". */
  readonly museName: (beingId: string) => Effect.Effect<string>
  /** The Muse's system prompt: the being's soul compiled under the Muse's name. */
  readonly persona: (being: ThreadBeing, museName: string) => Effect.Effect<string>
  /** The being's memories most related to the text (none when it has none or recall fails). */
  readonly recall: (beingId: string, text: string) => Effect.Effect<ReadonlyArray<string>>
  /**
   * The Muse's name and the twin profile as lines of text (none when the being never filled it in), from one read
   * of the profile: a reply needs both, the name first.
   */
  readonly profile: (
    beingId: string
  ) => Effect.Effect<{ readonly museName: string; readonly lines: ReadonlyArray<string> }>
  /** Whether the being has a live socket open on any process (its presence while the Muse replies). */
  readonly online: (beingId: string) => Effect.Effect<boolean>
}

export class MuseContext extends Context.Tag("threads/MuseContext")<MuseContext, MuseContextShape>() {}

export { ThreadLearning, ThreadOutbound } from "./contract/ports.ts"
