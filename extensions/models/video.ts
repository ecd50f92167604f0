/**
 * The 'video' tier through the videos API: `POST /v1/videos` starts a render, `GET /v1/videos/:id`
 * is polled until it completes or fails, and `GET /v1/videos/:id/content` downloads the MP4. The
 * ceilings are checked against the seconds asked for before the render starts; the ledger records
 * the seconds the provider made. What the node keeps of a video: nothing but the ledger row. The
 * bytes go to the caller (a plugin or skill, which may write them to its workspace); the provider's
 * job id, thumbnail and download URL are not kept, and the provider deletes the render when it expires.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type { Video } from "openai/resources/videos"
import type { Binding } from "./bindings.ts"
import type { CallTools } from "./call-tools.ts"
import { ModelCallFailed } from "./contract/errors.ts"
import type { VideoRequest, VideoResult } from "./contract/chat.ts"
import { costOfVideo, tokensIn } from "./prices.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** How often a render in progress is asked after; the first ask is at once, for a server that renders fast. */
const pollEvery = Duration.seconds(5)

const failed = (binding: Binding, message: string) =>
  new ModelCallFailed({ tier: "video", model: binding.model, baseUrl: binding.baseUrl, status: null, message })

export const makeVideo = (tools: CallTools) => (request: VideoRequest) =>
  Effect.gen(function* () {
    const primary = yield* tools.usableBinding("video")
    const asked = request.seconds ?? 4
    return yield* tools.withFallback(primary, (binding, fallback) =>
      Effect.gen(function* () {
        const attempt = yield* tools.beginPriced(binding, fallback, (price) => costOfVideo(price, asked), request)
        const client = yield* Effect.promise(() => tools.clientFor(binding))
        const ask = <A>(call: (signal: AbortSignal) => Promise<A>) =>
          Effect.tryPromise({ try: call, catch: tools.failureOf(binding) })

        const size = request.size === undefined ? {} : { size: request.size }
        const started = yield* ask((signal) =>
          client.videos.create(
            { model: binding.model, prompt: request.prompt, seconds: `${asked}` as "4", ...size },
            { signal }
          )
        )
        const settle = (job: Video, first: boolean): Effect.Effect<Video, ModelCallFailed> => {
          if (job.status === "completed") return Effect.succeed(job)
          if (job.status === "failed") {
            return Effect.fail(
              failed(
                binding,
                `The video model ${binding.model} at ${binding.baseUrl} could not make the video: ${job.error?.message ?? "no reason given"}.`
              )
            )
          }
          const next = ask((signal) => client.videos.retrieve(job.id, { signal }))
          return Effect.flatMap(first ? next : Effect.zipRight(Effect.sleep(pollEvery), next), (polled) =>
            settle(polled, false)
          )
        }
        const timeoutMs = tools.settings.llmVideoTimeoutMs
        const finished = yield* settle(started, true).pipe(
          Effect.timeoutFail({
            duration: Duration.millis(timeoutMs),
            onTimeout: () =>
              failed(
                binding,
                `The video model ${binding.model} at ${binding.baseUrl} did not finish within ${timeoutMs} ms (LLM_VIDEO_TIMEOUT_MS).`
              )
          })
        )
        const video = yield* ask(
          async (signal) =>
            new Uint8Array(
              await (await client.videos.downloadContent(finished.id, { variant: "video" }, { signal })).arrayBuffer()
            )
        )
        const reported = Number(finished.seconds)
        const seconds = Number.isFinite(reported) && reported > 0 ? reported : asked
        const call = yield* tools.record(
          attempt,
          request,
          null,
          { promptTokens: tokensIn(request.prompt), completionTokens: 0 },
          (price) => ({
            unit: "video_seconds",
            quantity: seconds,
            costUsd: costOfVideo(price, seconds)
          })
        )
        return { video, mimeType: "video/mp4", seconds, size: finished.size, call } satisfies VideoResult
      })
    )
  }).pipe(spanNamed("models.video", { attributes: { purpose: request.purpose } }))
