// What the container may name: the free preflight's service.
export { createTrialService, type TrialDeps } from "./service.js";
