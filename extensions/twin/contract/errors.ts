/**
 * The twin's named refusals: memories, connections and their syncs, webhooks, folders and voice
 * (codes in docs/api.md). A refusal of the same meaning elsewhere is that feature's (a missing
 * file the files feature's, an owner-only route the accounts').
 */
import { refusal } from "../../../kernel/contract/errors.ts"

/** A memory id that names none of the caller's memories. */
export class MemoryNotFound extends refusal(404, "MemoryNotFound", "not_found") {}

/** Remembering for the node's twin before the node has an owner. */
export class NoOwner extends refusal(503, "NoOwner", "no_owner") {}

/** A provider id that names no provider on this node (or none that syncs, or none that connects through OAuth). */
export class UnknownProvider extends refusal(404, "UnknownProvider", "unknown_provider") {}

/** A connection id that names none of the caller's connections. */
export class ConnectionNotFound extends refusal(404, "ConnectionNotFound", "not_found") {}

/** A second connection to a provider the caller is already connected to. */
export class AlreadyConnected extends refusal(409, "AlreadyConnected", "already_connected") {}

/** A connection's config that does not fit its provider's auth (a missing, unknown or empty field). */
export class InvalidConfig extends refusal(400, "InvalidConfig", "invalid_config") {}

/** Storing a connection's secret on a node with no ENCRYPTION_KEY. */
export class EncryptionNotConfigured extends refusal(409, "EncryptionNotConfigured", "encryption_not_configured") {}

/** A sync of a remote provider whose OAuth client the owner has not set. */
export class ProviderNotConfigured extends refusal(409, "ProviderNotConfigured", "provider_not_configured") {}

/** A sync of a remote provider the caller is not connected to. */
export class NotConnected extends refusal(409, "NotConnected", "not_connected") {}

/** A sync of a provider while one of the caller's is already running. */
export class SyncRunning extends refusal(409, "SyncRunning", "sync_running") {}

/** A browser-history import that names no History file. */
export class NoHistoryPath extends refusal(400, "NoHistoryPath", "invalid_path") {}

/** A file to import as browser history that is not a Chromium History database. */
export class NotBrowserHistory extends refusal(400, "NotBrowserHistory", "not_browser_history") {}

/** A sync of the files provider on a node with no FILES_ROOT. */
export class FilesNotConfigured extends refusal(409, "FilesNotConfigured", "files_not_configured") {}

/** A webhook delivery that does not verify against its connection's secret. */
export class InvalidSignature extends refusal(401, "InvalidSignature", "invalid_signature") {}

/** A verified webhook delivery the provider's handler did not take. */
export class InvalidDelivery extends refusal(400, "InvalidDelivery", "invalid_delivery") {}

/** A model's structured answer that did not fit its schema, even after one repair. */
export class ModelReplyInvalid extends refusal(503, "ModelReplyInvalid", "model_reply_invalid") {}

/** Consent asked for transcription that stays on this host: there is nothing to agree to. */
export class SttStaysOnDevice extends refusal(400, "SttStaysOnDevice", "stt_stays_on_device") {}

/** A consent or a recording for a transcription destination other than where recordings now go. */
export class SttDestinationChanged extends refusal(409, "SttDestinationChanged", "stt_destination_changed") {}

/** A recording that would leave this host before its destination was agreed to. */
export class SttConsentRequired extends refusal(403, "SttConsentRequired", "stt_consent_required") {}

/** A recording larger than the node transcribes. */
export class RecordingTooLarge extends refusal(413, "RecordingTooLarge", "payload_too_large") {}

/** A recording's body that is not a readable multipart form (no boundary, cut off, too many parts). */
export class MalformedRecording extends refusal(400, "MalformedRecording", "invalid_request") {}

/** A recording's audio part in a format the node does not transcribe. */
export class UnsupportedAudioFormat extends refusal(415, "UnsupportedAudioFormat", "unsupported_audio_format") {}

/** A recording's language field that is not a language code. */
export class InvalidLanguage extends refusal(400, "InvalidLanguage", "invalid_language") {}

/** A recording with more than one audio part. */
export class OneAudioPart extends refusal(400, "OneAudioPart", "one_audio_part") {}

/** A recording with no audio part, or an empty one. */
export class NoAudio extends refusal(400, "NoAudio", "no_audio") {}
