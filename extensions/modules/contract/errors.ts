/**
 * The modules' refusals (their routes, the bridge, an editor's save): each its own tag for callers,
 * its status and code (docs/api.md) fixed for the wire.
 */
import { refusal } from "../../../kernel/contract/errors.ts"

/** No module of that id in an active installed plugin (or no such plugin). */
export class ModuleNotFound extends refusal(404, "ModuleNotFound", "unknown_module") {}
/** A call or save that needs a capability the caller was not granted. */
export class CapabilityNotGranted extends refusal(403, "CapabilityNotGranted", "not_granted") {}
/** A bridge call naming a method outside the allowlist. */
export class BridgeMethodUnknown extends refusal(400, "BridgeMethodUnknown", "unknown_method") {}
/** A bridge call's args of the wrong shape for its method. */
export class BridgeArgsInvalid extends refusal(400, "BridgeArgsInvalid", "invalid_request") {}
/** A bridge call's args over the size a call may carry. */
export class BridgeArgsTooLarge extends refusal(413, "BridgeArgsTooLarge", "payload_too_large") {}
/** The storage's own refusals (a value too large, a storage full), the kernel's since plugins' adapters answer them too. */
export { StorageFull, StoredValueTooLarge } from "../../../kernel/contract/storage.ts"
/** A bridge `skills.invoke` of a skill the caller's plugin does not have. */
export class BridgeSkillUnknown extends refusal(404, "BridgeSkillUnknown", "unknown_skill") {}
/** A file save from a module that is not an editor. */
export class NotAnEditor extends refusal(400, "NotAnEditor", "not_an_editor") {}
/** An editor's save over the size an editor may write. */
export class EditedFileTooLarge extends refusal(413, "EditedFileTooLarge", "payload_too_large") {}
/** An editor's save of a file of a type it did not declare. */
export class FileTypeNotHandled extends refusal(400, "FileTypeNotHandled", "file_type_not_handled") {}
/** An editor's save of a file that is not among the being's files. */
export class EditedFileNotFound extends refusal(404, "EditedFileNotFound", "not_found") {}
/** An editor's save the file root would not write. */
export class FileNotSaved extends refusal(400, "FileNotSaved", "file_not_saved") {}
