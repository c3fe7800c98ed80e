export * from "./confirm-lease-spend";
export * from "./grant-lease";
export * from "./lease-answer";
export * from "./lease-deps";
export * from "./lease-keys";
export * from "./list-active-leases";
export * from "./renew-lease";
export * from "./surrender-lease";
