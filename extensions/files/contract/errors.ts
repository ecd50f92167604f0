/** The files feature's named refusals: listing, reading, downloading and uploading (codes in docs/api.md). */
import { refusal } from "../../../kernel/contract/errors.ts"

/** A file (or its folder) that is not among the caller's files: missing, or another's. */
export class FileNotFound extends refusal(404, "FileNotFound", "not_found") {}

/** A project scope that names no project of the caller's. */
export class ProjectFolderNotFound extends refusal(404, "ProjectFolderNotFound", "not_found") {}

/** A path that is refused: `..`, absolute, NUL, through a link out, too long, or not URL encoding. */
export class InvalidPath extends refusal(400, "InvalidPath", "invalid_path") {}

/** A path that names something other than a regular file, to read or download. */
export class NotAFile extends refusal(400, "NotAFile", "not_a_file") {}

/** A path to list that names something other than a folder. */
export class NotAFolder extends refusal(400, "NotAFolder", "not_a_folder") {}

/** A file larger than read answers. */
export class FileTooLarge extends refusal(400, "FileTooLarge", "file_too_large") {}

/** A scope and projectId that do not go together (a projectId without scope project, or none with it). */
export class ScopeMismatch extends refusal(400, "ScopeMismatch", "invalid_request") {}

/** An id that is not a file id. */
export class NotAFileId extends refusal(400, "NotAFileId", "invalid_request") {}

/** The user scope (the owner's own folder), asked by someone other than the owner. */
export class UserScopeOwnerOnly extends refusal(403, "UserScopeOwnerOnly", "forbidden") {}

/** What naming a scope's root may be refused with. */
export type FileRootRefusal = ScopeMismatch | ProjectFolderNotFound | UserScopeOwnerOnly

/** What opening one of the caller's files by its id may be refused with, beyond a missing file. */
export type FileOpenRefusal = NotAFileId | InvalidPath | NotAFile | NotAFolder

/** An upload that is not a readable multipart body (no boundary, cut off, too many parts). */
export class MalformedUpload extends refusal(400, "MalformedUpload", "invalid_request") {}

/** An upload with no file part. */
export class NoFile extends refusal(400, "NoFile", "no_file") {}

/** An uploaded file whose name cannot name a file. */
export class InvalidFilename extends refusal(400, "InvalidFilename", "invalid_filename") {}

/** An upload of more files than one request takes. */
export class TooManyFiles extends refusal(400, "TooManyFiles", "too_many_files") {}

/** An upload larger than the node takes in one request. */
export class UploadTooLarge extends refusal(413, "UploadTooLarge", "payload_too_large") {}
