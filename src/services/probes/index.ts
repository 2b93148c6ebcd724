// What other folders and the container may name: the service, its numbers, and one probe as the live probe sends it.
export * from "./constants.js";
export { probeEndpoint, type EndpointJob } from "./endpoint-probe.js";
export { createHttpClient, type HttpClient } from "./http-client.js";
export { classifyNetworkError } from "./network-error.js";
export { DEFAULT_PROFILE, type ProbeProfile } from "./profiles.js";
export { createProbesService, type ProbesConfig, type ProbesDeps, type ProbesService } from "./service.js";
export type { NetworkErrorKind } from "./types.js";
