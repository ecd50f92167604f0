/**
 * The federation's routes (docs/api.md "Federation"). `federation` is the owner's: peers and
 * their handshake. `federationWire` is what other nodes call: no session, each request
 * authenticated by its signatures, so each is a signed wire route (exempt from the same-origin
 * check), counts in the `wire` rate class (one address cannot flood signature checks) and takes
 * a small body (FEDERATION_MAX_DOCUMENT_BYTES).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { BodyLimit, RateClass, WireRoute } from "../../../kernel/contract/endpoint-policy.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound, Unavailable } from "../../../kernel/contract/errors.ts"
import { PageParams } from "../../../kernel/contract/page.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import {
  AddPeer,
  DirectoryStatus,
  FederatedConversation,
  FederatedMessage,
  FederatedThread,
  FlushResult,
  NewConversation,
  OutboxParams,
  OwnIdentity,
  Peer,
  PeerPath,
  PeerRemoved,
  PeerSession,
  PeerUpdate,
  ThreadIdPath
} from "./records.ts"
import { AddPeerByHandle, RegistrationAnswer, Resolution, ResolveRequest, SignedRegistration } from "./directory.ts"
import { DepositReceipt, NodeRelayState, RelayEnrol, RelayEnrolment, RelayEnrolmentAnswer } from "./relay.ts"
import {
  DeliveryReceipt,
  PeerCollect,
  PeerCollection,
  PeerGreeting,
  PeerHello,
  SignedCapabilityProfile
} from "./wire.ts"

export const MAX_DOCUMENT_BYTES_SETTING = "FEDERATION_MAX_DOCUMENT_BYTES"
export const DEFAULT_MAX_DOCUMENT_BYTES = 64 * 1024

export class FederationApi extends HttpApiGroup.make("federation")
  .annotate(
    OpenApi.Description,
    "This node's side of federation, as its owner (or any signed-in being for `me`): peers, federated " +
      "conversations, the outbox, the relay and the directory."
  )
  .add(
    HttpApiEndpoint.get("listPeers", "/federation/peers")
      .annotate(OpenApi.Summary, "List peers")
      .annotate(
        OpenApi.Description,
        "The node's federation peers, oldest first, paged by `limit` (1..200, default 50) and `offset`, with " +
          "whether its square posts go to each. Owner only (403 `forbidden`)."
      )
      .setUrlParams(PageParams)
      .addSuccess(Schema.Array(Peer))
  )
  .add(
    HttpApiEndpoint.post("addPeer", "/federation/peers")
      .annotate(OpenApi.Summary, "Add a peer")
      .annotate(
        OpenApi.Description,
        "Adds a node as a peer and shakes hands at once: verified, refused (with the reason) or unreachable " +
          "(still added). Owner only (403 `forbidden`). Refusals: 400 `own_node`, 409 `peer_exists`."
      )
      .setPayload(AddPeer)
      .addSuccess(PeerSession)
      .addError(InvalidRequest.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.post("greetPeer", "/federation/peers/:id/greet")
      .annotate(OpenApi.Summary, "Greet a peer again")
      .annotate(
        OpenApi.Description,
        "Runs the handshake with the peer again; a blocked peer is sent nothing. Owner only (403 `forbidden`). " +
          "Refusals: 404 `peer_not_found`."
      )
      .setPath(PeerPath)
      .addSuccess(PeerSession)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.patch("updatePeer", "/federation/peers/:id")
      .annotate(OpenApi.Summary, "Change a peer")
      .annotate(
        OpenApi.Description,
        "Changes the endpoint, name, relay, whether it is blocked and whether the node's posts go to it; a move " +
          "or an unblock needs a new greeting. Owner only (403 `forbidden`). Refusals: 404 `peer_not_found`."
      )
      .setPath(PeerPath)
      .setPayload(PeerUpdate)
      .addSuccess(Peer)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.del("removePeer", "/federation/peers/:id")
      .annotate(OpenApi.Summary, "Remove a peer")
      .annotate(
        OpenApi.Description,
        "Removes the peer; conversations stay. Owner only (403 `forbidden`). Refusals: 404 `peer_not_found`."
      )
      .setPath(PeerPath)
      .addSuccess(PeerRemoved)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.get("listConversations", "/federation/conversations")
      .annotate(OpenApi.Summary, "List federated conversations")
      .annotate(
        OpenApi.Description,
        "The caller's conversations with beings of other nodes, oldest first, paged by `limit` (1..200, default " +
          "50) and `offset`, with what is queued or stuck. Owner only (403 `forbidden`)."
      )
      .setUrlParams(PageParams)
      .addSuccess(Schema.Array(FederatedConversation))
  )
  .add(
    HttpApiEndpoint.post("openConversation", "/federation/conversations")
      .annotate(OpenApi.Summary, "Open a federated conversation")
      .annotate(
        OpenApi.Description,
        "A direct thread with a being of a peer node (the existing one, renamed when a petname is given). Owner " +
          "only (403 `forbidden`). Refusals: 400 `remote_is_local`, 404 `peer_not_found`."
      )
      .setPayload(NewConversation)
      .addSuccess(FederatedConversation)
      .addError(InvalidRequest.schema)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.get("federatedThread", "/federation/threads/:id")
      .annotate(OpenApi.Summary, "A federated thread's provenance")
      .annotate(
        OpenApi.Description,
        "A conversation's messages with their provenance (author did, digest, sealed, verified, delivery state) " +
          "and wire rows. Owner only (403 `forbidden`). Refusals: 404 `conversation_not_found`."
      )
      .setPath(ThreadIdPath)
      .addSuccess(FederatedThread)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.get("outbox", "/federation/outbox")
      .annotate(OpenApi.Summary, "The outbox")
      .annotate(
        OpenApi.Description,
        "The outbound federated messages of a `kind` (post, retraction, message), newest first, paged by " +
          "`limit` (1..200, default 50) and `offset`. Owner only (403 `forbidden`)."
      )
      .setUrlParams(OutboxParams)
      .addSuccess(Schema.Array(FederatedMessage))
  )
  .add(
    HttpApiEndpoint.post("flush", "/federation/flush")
      .annotate(OpenApi.Summary, "Deliver now")
      .annotate(
        OpenApi.Description,
        "Runs the directory pass, requeues stuck rows, runs the courier once and collects from every peer and " +
          "the relay; answers what each did. Owner only (403 `forbidden`)."
      )
      .addSuccess(FlushResult)
  )
  .add(
    HttpApiEndpoint.get("relayState", "/federation/relay")
      .annotate(OpenApi.Summary, "This node's relay")
      .annotate(
        OpenApi.Description,
        "The relay this node is enrolled at (SVC_RELAY_ENDPOINT), its limits and counts, and the last error. " +
          "Owner only (403 `forbidden`)."
      )
      .addSuccess(NodeRelayState)
  )
  .add(
    HttpApiEndpoint.post("enrolRelay", "/federation/relay/enrol")
      .annotate(OpenApi.Summary, "Enrol at the relay now")
      .annotate(
        OpenApi.Description,
        "Enrols (or renews) at SVC_RELAY_ENDPOINT now; a refusal is `accepted` false with the reason. Owner only " +
          "(403 `forbidden`)."
      )
      .addSuccess(RelayEnrolment)
  )
  // Any signed-in being: its own did (the rest of the group is the owner's).
  .add(
    HttpApiEndpoint.get("me", "/federation/me")
      .annotate(OpenApi.Summary, "The caller's did")
      .annotate(
        OpenApi.Description,
        "The caller's did:key (made the first time it is asked for) and this node's did. Any session."
      )
      .addSuccess(OwnIdentity)
  )
  // The spec's "Directory" group holds only this route so far; it lives with the node's identity.
  .add(
    HttpApiEndpoint.get("directoryStatus", "/directory/status")
      .annotate(OpenApi.Summary, "The directory listing")
      .annotate(
        OpenApi.Description,
        "Whether DIRECTORY_ENDPOINT is set, the pinned directory did, the handles listed, expiry and the last " +
          "error. Owner only (403 `forbidden`)."
      )
      .addSuccess(DirectoryStatus)
  )
  // Registers with DIRECTORY_ENDPOINT now, whatever is left of the listing (docs/federation.md "The directory").
  .add(
    HttpApiEndpoint.post("directoryRegister", "/directory/register")
      .annotate(OpenApi.Summary, "Register at the directory now")
      .annotate(
        OpenApi.Description,
        "Registers with DIRECTORY_ENDPOINT now; a failure is in `lastError`, the earlier listing kept. Owner " +
          "only (403 `forbidden`)."
      )
      .addSuccess(DirectoryStatus)
  )
  // Resolves a handle at the directory, then the ordinary add-peer handshake with what it names.
  .add(
    HttpApiEndpoint.post("addPeerByHandle", "/directory/peers")
      .annotate(OpenApi.Summary, "Add a peer by its handle")
      .annotate(
        OpenApi.Description,
        "Resolves a handle at the node's directory (signed by the pinned did), then adds that node as a peer. " +
          "Owner only (403 `forbidden`). Refusals: 404 `handle_not_resolved`, 400 `own_node`, 409 `peer_exists`."
      )
      .setPayload(AddPeerByHandle)
      .addSuccess(PeerSession)
      .addError(InvalidRequest.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
  )
  .addError(Forbidden.schema)
  .addError(Unavailable.schema)
  .middleware(Authentication)
  .prefix("/api") {}

export class FederationWireApi extends HttpApiGroup.make("federationWire")
  .annotate(
    OpenApi.Description,
    "Signed wire routes other nodes, relays and directories call (docs/federation.md): no session, exempt from " +
      "the same-origin check, rate class `wire`. Each body is signed; a refusal is an answer with `accepted` false " +
      "and its reason."
  )
  .add(
    HttpApiEndpoint.get("capabilities", "/federation/capabilities")
      .annotate(OpenApi.Summary, "The node's signed capability profile")
      .annotate(OpenApi.Description, "What this node speaks, signed by its did; valid one hour. Public.")
      .addSuccess(SignedCapabilityProfile)
  )
  .add(
    HttpApiEndpoint.post("hello", "/federation/peer/hello")
      .annotate(OpenApi.Summary, "A peer's greeting")
      .annotate(
        OpenApi.Description,
        "A node greets this one; `accepted` false with no documents for a node the owner has not added or has " +
          "blocked. Public, signed."
      )
      .setPayload(PeerHello)
      .addSuccess(PeerGreeting)
  )
  // Any JSON: a body of the wrong shape is the ladder's first refusal, in a receipt, never a 400.
  .add(
    HttpApiEndpoint.post("deliver", "/federation/peer/deliver")
      .annotate(OpenApi.Summary, "Deliver an envelope")
      .annotate(
        OpenApi.Description,
        "A peer delivers a signed envelope (a post, a retraction, a message); always HTTP 200 with a receipt " +
          "saying whether it was accepted and why. Public, signed."
      )
      .setPayload(Schema.Unknown)
      .addSuccess(DeliveryReceipt)
  )
  .add(
    HttpApiEndpoint.post("collect", "/federation/peer/collect")
      .annotate(OpenApi.Summary, "Collect what is held for a node")
      .annotate(
        OpenApi.Description,
        "A peer proves its did by challenges and collects the envelopes held for it, acknowledging earlier ones. " +
          "Public, signed; a body outside the bounds is a 400."
      )
      .setPayload(PeerCollect)
      .addSuccess(PeerCollection)
  )
  // The relay's (docs/federation.md "The relay"): enrol with a key proof, deposit a sealed envelope, collect with a key
  // proof.
  .add(
    HttpApiEndpoint.post("relayEnrolment", "/federation/relay/enrolment")
      .annotate(OpenApi.Summary, "Enrol at this node as a relay")
      .annotate(
        OpenApi.Description,
        "A peer node enrols its mailbox at this node's relay; only for a node this relay's owner added as a peer " +
          "and did not block. Public, signed."
      )
      .setPayload(RelayEnrol)
      .addSuccess(RelayEnrolmentAnswer)
  )
  .add(
    HttpApiEndpoint.post("relayDeposit", "/federation/relay/deposit")
      .annotate(OpenApi.Summary, "Deposit at the relay")
      .annotate(
        OpenApi.Description,
        "Leaves a sealed envelope for a mailbox of this relay; always HTTP 200 with a receipt. Public, signed."
      )
      .setPayload(Schema.Unknown)
      .addSuccess(DepositReceipt)
  )
  .add(
    HttpApiEndpoint.post("relayCollect", "/federation/relay/collect")
      .annotate(OpenApi.Summary, "Collect from the relay")
      .annotate(
        OpenApi.Description,
        "A mailbox's node proves its did and collects what the relay holds for it. Public, signed."
      )
      .setPayload(PeerCollect)
      .addSuccess(PeerCollection)
  )
  // The directory's (docs/federation.md "The directory"): a registration signed by the node, a resolve answered signed.
  .add(
    HttpApiEndpoint.post("directoryRegistration", "/federation/directory/register")
      .annotate(OpenApi.Summary, "Register at this directory")
      .annotate(
        OpenApi.Description,
        "A node registers its handles and endpoint at this node's directory; always HTTP 200 with a signed " +
          "receipt or the refusal's code. Public, signed."
      )
      .setPayload(SignedRegistration)
      .addSuccess(RegistrationAnswer)
  )
  .add(
    HttpApiEndpoint.post("directoryResolve", "/federation/directory/resolve")
      .annotate(OpenApi.Summary, "Resolve a handle at this directory")
      .annotate(
        OpenApi.Description,
        "The signed directory entry of a handle, or `found` false; always HTTP 200. Public."
      )
      .setPayload(ResolveRequest)
      .addSuccess(Resolution)
  )
  // What every route other nodes call declares: signed, its own rate class, a small body.
  .annotate(WireRoute, true)
  .annotate(RateClass, "wire")
  .annotate(BodyLimit, { bytes: DEFAULT_MAX_DOCUMENT_BYTES, setting: MAX_DOCUMENT_BYTES_SETTING })
  .prefix("/api") {}
