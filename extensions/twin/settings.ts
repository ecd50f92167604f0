/**
 * The twin's own settings, read once from the environment (docs/operations.md lists each with its
 * default): how often memories stored without a vector are embedded and queued text is learned, and the two similarity
 * lines of the memory (what a search by meaning counts as related, what learning counts as a
 * near-duplicate), the key connection secrets are sealed with, the largest recording a
 * transcription takes and the largest webhook delivery.
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import { optionalSecret, settingsLayer } from "../../kernel/settings.ts"
import { DEFAULT_MAX_TRANSCRIBE_BYTES, MAX_TRANSCRIBE_BYTES_SETTING } from "./voice/contract/records.ts"
import { DEFAULT_WEBHOOK_MAX_BYTES, WEBHOOK_MAX_BYTES_SETTING } from "./contract/webhooks-api.ts"
import { DEFAULT_OAUTH_CLIENT_MAX_BYTES, OAUTH_CLIENT_MAX_BYTES_SETTING } from "./contract/oauth-clients.ts"

const similarity = (name: string, fallback: number) =>
  Config.number(name).pipe(
    Config.validate({
      message: `${name} must be a cosine similarity between 0 and 1`,
      validation: (value) => value >= 0 && value <= 1
    }),
    Config.withDefault(fallback)
  )

export const twinSettingsConfig = Config.all({
  /** Every this many ms the backfill embeds memories stored while the embed tier was unbound or down. */
  memoryBackfillIntervalMs: Config.integer("MEMORY_BACKFILL_INTERVAL_MS").pipe(
    Config.validate({ message: "MEMORY_BACKFILL_INTERVAL_MS must be at least 1000", validation: (ms) => ms >= 1000 }),
    Config.withDefault(60_000)
  ),
  /** Every this many ms the learning loop reads what the twin's sources queued (learning-loop.ts). */
  learnIntervalMs: Config.integer("TWIN_LEARN_INTERVAL_MS").pipe(
    Config.validate({ message: "TWIN_LEARN_INTERVAL_MS must be at least 100", validation: (ms) => ms >= 100 }),
    Config.withDefault(300_000)
  ),
  /** A vector hit less similar than this to the query is not a search result. */
  memoryMinSimilarity: similarity("MEMORY_MIN_SIMILARITY", 0.3),
  /** Learning (and memory.store) skips a memory at least this similar to one the twin already holds. */
  memoryDuplicateSimilarity: similarity("MEMORY_DUPLICATE_SIMILARITY", 0.92),
  /**
   * The passphrase connection secrets are sealed with (secrets/envelope.ts). Unset: saving a
   * secret is refused, saying to set it. Losing it makes every stored secret unreadable.
   */
  encryptionKey: optionalSecret("ENCRYPTION_KEY"),
  /** The largest recording `POST /api/twin/voice/transcribe` takes (the audio part; its form may add 16 KiB). */
  maxTranscribeBytes: Config.integer(MAX_TRANSCRIBE_BYTES_SETTING).pipe(
    Config.withDefault(DEFAULT_MAX_TRANSCRIBE_BYTES),
    Config.validate({
      message: `${MAX_TRANSCRIBE_BYTES_SETTING} must be a whole number of bytes, at least 1024`,
      validation: (n) => n >= 1024
    })
  ),
  /**
   * The largest webhook delivery `POST /api/twin/webhooks/:provider/:connectionId` reads (its route's BodyLimit reads
   * the same setting).
   */
  webhookMaxBytes: Config.integer(WEBHOOK_MAX_BYTES_SETTING).pipe(
    Config.withDefault(DEFAULT_WEBHOOK_MAX_BYTES),
    Config.validate({
      message: `${WEBHOOK_MAX_BYTES_SETTING} must be a whole number of bytes, at least 1024`,
      validation: (n) => n >= 1024
    })
  ),
  /** The largest body `PUT /api/twin/oauth-clients/:provider` reads (its route's BodyLimit reads the same setting). */
  oauthClientMaxBytes: Config.integer(OAUTH_CLIENT_MAX_BYTES_SETTING).pipe(
    Config.withDefault(DEFAULT_OAUTH_CLIENT_MAX_BYTES),
    Config.validate({
      message: `${OAUTH_CLIENT_MAX_BYTES_SETTING} must be a whole number of bytes, at least 1024`,
      validation: (n) => n >= 1024
    })
  )
})

export type TwinSettingsShape = Config.Config.Success<typeof twinSettingsConfig>

export class TwinSettings extends Context.Tag("twin/TwinSettings")<TwinSettings, TwinSettingsShape>() {
  static readonly layer = (overrides?: Partial<TwinSettingsShape>) =>
    settingsLayer(TwinSettings, twinSettingsConfig, overrides)
}
