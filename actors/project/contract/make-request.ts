/**
 * The omnibar's one rule: a sentence that asks for something to be made starts a project. Here,
 * in the contract, so the node (POST /api/studio/omnibar) and the shell's omnibar (which offers
 * "start a project" instead of searching) read the same rule.
 */

/** A sentence that asks for something to be made: make, build, write or draft, perhaps after "please". */
const makeRequest = /^\s*(?:(?:please|can you|could you|would you)\s+)?(?:make|build|write|draft)\b/i

export const isMakeRequest = (text: string) => makeRequest.test(text)
