/** A blog post: research, an outline, a draft, and an edit that keeps what the draft got right. */
import type { GeneratorSeed } from "../../extensions/generators/contract/generator.ts"

export const blogPost: GeneratorSeed = {
  slug: "blog-post",
  name: "Blog post",
  description:
    "A researched, outlined and edited blog post in your tone, ready to publish as markdown with frontmatter.",
  icon: "📝",
  inputsSchema: {
    type: "object",
    required: ["topic"],
    additionalProperties: false,
    properties: {
      topic: {
        type: "string",
        title: "Topic",
        description: "What the post is about, in a sentence.",
        minLength: 3,
        maxLength: 300,
        "x-placeholder": "Why we moved our team to a four-day week"
      },
      audience: {
        type: "string",
        title: "Readers",
        maxLength: 200,
        default: "people who read our blog",
        "x-placeholder": "Engineering managers"
      },
      tone: { type: "string", title: "Tone", enum: ["friendly", "expert", "playful", "plain"], default: "friendly" },
      length: { type: "integer", title: "Length in words", minimum: 400, maximum: 4000, default: 1100 },
      keywords: {
        type: "string",
        title: "Keywords",
        description: "Comma-separated words the post should use naturally.",
        maxLength: 300,
        "x-advanced": true,
        "x-placeholder": "four-day week, productivity"
      },
      addCallToAction: { type: "boolean", title: "End with a call to action", default: false },
      callToAction: {
        type: "string",
        title: "Call to action",
        maxLength: 300,
        "x-showWhen": "addCallToAction",
        "x-placeholder": "Subscribe to the newsletter"
      }
    }
  },
  steps: [
    {
      id: "research",
      title: "Research {{inputs.topic}}",
      role: "researcher",
      skills: ["web.search", "web.fetch", "docs.write_markdown"],
      instruction:
        "Gather material for a blog post on {{inputs.topic}} for {{inputs.audience}}: facts, examples and numbers worth quoting, " +
        "each with the link to its page. Save the notes as research/notes.md.",
      deliverable: { file: "research/notes.md", minSourceLinks: 2 }
    },
    {
      id: "outline",
      title: "Outline the post",
      role: "editor",
      skills: ["files.read", "docs.write_markdown"],
      instruction:
        "From these notes, outline a {{inputs.tone}} post of about {{inputs.length}} words on {{inputs.topic}}: a working title, " +
        "the hook, one line for each section and the point it makes, and the close.\n\nNotes:\n{{steps.research.output}}\n\n" +
        "Save the outline as outline.md.",
      deliverable: { file: "outline.md" }
    },
    {
      id: "draft",
      title: "Draft the post",
      role: "writer",
      skills: ["files.read", "docs.write_markdown"],
      instruction:
        "Write the post from this outline, in a {{inputs.tone}} voice for {{inputs.audience}}, about {{inputs.length}} words. " +
        "Keep the source links from research/notes.md inline. Work in these keywords where they fit: {{inputs.keywords}}. " +
        "Call to action, if one is wanted ({{inputs.addCallToAction}}): {{inputs.callToAction}}.\n\nOutline:\n{{steps.outline.output}}\n\n" +
        "Save it as post.md with frontmatter title and description.",
      dependsOn: ["research"],
      deliverable: {
        file: "post.md",
        frontmatter: ["title", "description"],
        words: { target: "{{inputs.length}}" },
        minSourceLinks: 2,
        forbidOpeners: ["In today's", "In an ever", "Have you ever wondered"]
      }
    },
    {
      id: "edit",
      title: "Edit the post",
      role: "editor",
      skills: ["files.read", "docs.write_markdown"],
      instruction:
        "Edit post.md: tighten every paragraph, fix facts that the notes do not support, keep the voice {{inputs.tone}}. " +
        "Keep its links and its frontmatter, and keep its length near {{inputs.length}} words. Save the result over post.md.",
      dependsOn: ["draft"],
      deliverable: {
        file: "post.md",
        revises: "post.md",
        frontmatter: ["title", "description"],
        words: { target: "{{inputs.length}}" },
        minRetainedWords: 0.85,
        minRetainedLinks: 1
      }
    }
  ],
  outputKinds: ["markdown"]
}
