// What the endpoint page and badges may name: the service and its page data.
export { createEndpointHistoryService, type EndpointHistoryService } from "./service.js";
export * from "./types.js";
