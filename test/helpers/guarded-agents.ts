import axios from "axios";
import { wrapAxiosWithPayment, x402Client as axiosX402Client } from "@x402/axios";
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { lookoutPolicy, type GuardDecision, type LookoutClient, type LookoutPolicyOptions } from "@x402-lookout/client";
import type { PaidService } from "./paid-service.js";

/**
 * The two official clients an agent pays with, @x402/fetch 2.27 and @x402/axios 2.11 (its own
 * @x402/core), each guarded as docs/clients.md shows (the policy hook and its transport tap),
 * paying from the devnet account `agent`. Decisions of both go to one list.
 */
export function guardedAgents(svc: PaidService, lookout: LookoutClient, agent: number, options: Partial<LookoutPolicyOptions> = {}) {
  const decisions: GuardDecision[] = [];
  const scheme = () => new ExactEvmScheme(privateKeyToAccount(svc.devnet.demoAccounts[agent]!.privateKey));
  const policy = () => lookoutPolicy({ lookout, onDecision: (d) => decisions.push(d), ...options });
  const forFetch = policy();
  const fetchClient = x402Client.fromConfig({ schemes: [{ network: svc.devnet.network, client: scheme() }] }).onBeforePaymentCreation(forFetch);
  const viaFetch = wrapFetchWithPayment(forFetch.fetch(fetch), fetchClient);
  const forAxios = policy();
  const axiosClient = new axiosX402Client().register(svc.devnet.network, scheme() as never);
  axiosClient.onBeforePaymentCreation(forAxios as never);
  const viaAxios = wrapAxiosWithPayment(forAxios.axios(axios.create()), axiosClient);
  return { decisions, viaFetch: (url: string) => viaFetch(url), viaAxios: (url: string) => viaAxios.get(url) };
}
