/** The push feature's named refusals (codes in docs/api.md). */
import { refusal } from "../../../kernel/contract/errors.ts"

/** A subscription id that names none of the caller's. */
export class SubscriptionNotFound extends refusal(404, "SubscriptionNotFound", "subscription_not_found") {}

/** An endpoint the node will not send to: not https (nor http on loopback where allowed). */
export class EndpointRefused extends refusal(400, "EndpointRefused", "push_endpoint_refused") {}

/** One device more than PUSH_MAX_SUBSCRIPTIONS. */
export class TooManySubscriptions extends refusal(409, "TooManySubscriptions", "too_many_subscriptions") {}
