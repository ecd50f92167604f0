/** The import's named refusals (codes in docs/api.md). */
import { refusal } from "../../../../kernel/contract/errors.ts"

/** An import with no file part. */
export class NoImportFile extends refusal(400, "NoImportFile", "no_file") {}

/** A multipart body that could not be read. */
export class MalformedImport extends refusal(400, "MalformedImport", "invalid_request") {}

/** An import body past MAX_IMPORT_BYTES. */
export class ImportTooLarge extends refusal(413, "ImportTooLarge", "payload_too_large") {}
