/**
 * The skills every agent carries whatever its role (the spec's baseline). An agent keeps only the
 * skills it chose; the baseline is added when the agent is read, from what the registry holds at
 * that moment: web.research joins every agent on the day it is registered, and a baseline skill
 * that is not registered is not promised.
 */
export const baselineSkills: ReadonlyArray<string> = [
  "web.search",
  "web.fetch",
  "web.research",
  "math.evaluate",
  "files.read",
  "files.write",
  "files.list"
]

/** The chosen skills (first occurrence of each), then the registered baseline skills not among them. */
export const withBaseline = (chosen: ReadonlyArray<string>, registered: ReadonlySet<string>): Array<string> => {
  const skills = [...new Set(chosen)]
  for (const name of baselineSkills) if (registered.has(name) && !skills.includes(name)) skills.push(name)
  return skills
}
