/** The skill registry's refusal (docs/api.md): its own tag for callers, its status and code fixed for the wire. */
import { refusal } from "./errors.ts"

/** No skill is registered under the name asked for. */
export class UnknownSkill extends refusal(404, "UnknownSkill", "unknown_skill") {}
