/** The market's named refusals: listings, what they sell, buying, reviews and wallets (codes in docs/api.md). */
import { refusal } from "../../../kernel/contract/errors.ts"

/** A listing id that names no listing. */
export class ListingNotFound extends refusal(404, "ListingNotFound", "listing_not_found") {}

/** A listing the owner's moderation takes down or restores that does not exist (or no market is here). */
export class NoListingToModerate extends refusal(404, "NoListingToModerate", "not_found") {}

/** A search with more words than a search takes. */
export class TooManySearchTerms extends refusal(400, "TooManySearchTerms", "too_many_search_terms") {}

/** A service listing with neither a brief nor a description. */
export class ServiceNeedsBrief extends refusal(400, "ServiceNeedsBrief", "service_needs_brief") {}

/** A module listing that names no module bundle (refId). */
export class ModuleNeedsRef extends refusal(400, "ModuleNeedsRef", "module_needs_ref") {}

/** Changing a listing as neither its seller nor the node's owner. */
export class NotSeller extends refusal(403, "NotSeller", "not_seller") {}

/** A refId that names nothing of the seller's (another's private thing answers the same). */
export class RefNotFound extends refusal(404, "RefNotFound", "ref_not_found") {}

/** A refId that names another's public thing: not the seller's to sell. */
export class RefNotOwned extends refusal(403, "RefNotOwned", "ref_not_owned") {}

/** A skill listing whose skill no skill registered on this node has. */
export class SkillNotRegistered extends refusal(400, "SkillNotRegistered", "unknown_skill") {}

/** A module listing's refId that is a file, or a folder that cannot be read. */
export class NotABundle extends refusal(400, "NotABundle", "not_a_bundle") {}

/** A module bundle whose plugin.json declares no extension of kind module. */
export class NotAModule extends refusal(400, "NotAModule", "not_a_module") {}

/** A module bundle over the bounds of files or bytes. */
export class BundleTooLarge extends refusal(400, "BundleTooLarge", "bundle_too_large") {}

/** A buy of a listing the node's owner has taken down. */
export class ListingModerated extends refusal(409, "ListingModerated", "listing_moderated") {}

/** A buy of a listing that is not active (paused, sold out, closed). */
export class ListingInactive extends refusal(409, "ListingInactive", "listing_inactive") {}

/** A buy of one's own listing. */
export class BuyingOwnListing extends refusal(409, "BuyingOwnListing", "own_listing") {}

/** A second buy of a listing that is not a service. */
export class AlreadyOwned extends refusal(409, "AlreadyOwned", "already_owned") {}

/** A buy whose listing's thing is gone: the listing is now sold out. */
export class ListingSoldOut extends refusal(409, "ListingSoldOut", "listing_sold_out") {}

/** A payment larger than the payer's wallet holds. */
export class InsufficientCredits extends refusal(409, "InsufficientCredits", "insufficient_credits") {}

/** A plugin's spend past what its `credits` grant lets it spend of one being's wallet in a day. */
export class PluginCreditLimit extends refusal(409, "PluginCreditLimit", "plugin_credit_limit") {}

/** A module bought whose folder (its namespace) is already in the plugin folder. */
export class ModuleAlreadyAvailable extends refusal(409, "ModuleAlreadyAvailable", "module_already_available") {}

/** A module bought that could not be written into the plugin folder. */
export class ModuleDeliveryFailed extends refusal(503, "ModuleDeliveryFailed", "module_delivery_failed") {}

/** A review of one's own listing. */
export class ReviewingOwnListing extends refusal(403, "ReviewingOwnListing", "own_listing") {}

/** A review by someone who did not buy the listing. */
export class NotABuyer extends refusal(403, "NotABuyer", "not_a_buyer") {}
