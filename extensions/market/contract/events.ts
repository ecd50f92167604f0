/** The market's event: a being's wallet after a change. */
import { event } from "../../../kernel/contract/events.ts"
import { Wallet } from "./records.ts"

export const WalletUpdated = event("wallet.updated", { wallet: Wallet })

declare module "../../../kernel/contract/events.ts" {
  interface BusEvents {
    "wallet.updated": typeof WalletUpdated.Type
  }
}
