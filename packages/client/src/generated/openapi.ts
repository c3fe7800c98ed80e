// Generated from packages/manage/openapi.json by openapi-typescript. Do not edit: after the
// management API's routes change, run `npm run -s -w @breakwater/manage openapi`, then
// `npm run -s -w @breakwater/client generate`. src/codegen.test.ts fails while this file is stale.

export interface paths {
    "/api/manage/v1/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the organization's projects */
        get: operations["listProjects"];
        put?: never;
        /** Create a project with its budget mode and period limits */
        post: operations["createProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/projects/{projectId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a project */
        get: operations["getProject"];
        put?: never;
        post?: never;
        /**
         * Delete a project
         * @description Its keys stop working at once; its usage history stays in the organization's reports.
         */
        delete: operations["deleteProject"];
        options?: never;
        head?: never;
        /** Rename a project */
        patch: operations["updateProject"];
        trace?: never;
    };
    "/api/manage/v1/projects/{projectId}/budget": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a project's budget: mode, period limits, threshold alerts and run spend cap
         * @description Answers an ETag; send it back as If-Match when replacing the budget.
         */
        get: operations["getBudget"];
        /**
         * Replace a project's budget
         * @description Every replica's budget checks follow within a second. With If-Match, a budget changed since it was read is not overwritten (412).
         */
        put: operations["replaceBudget"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/projects/{projectId}/tag-rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a project's tag rules (spend limits on calls carrying given tags) */
        get: operations["listTagRules"];
        put?: never;
        /**
         * Create a tag rule
         * @description Checks whose tags contain every selector pair are limited to limitUsd per period.
         */
        post: operations["createTagRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/projects/{projectId}/tag-rules/{ruleId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Replace a tag rule (its counters start afresh) */
        put: operations["replaceTagRule"];
        post?: never;
        /** Delete a tag rule */
        delete: operations["deleteTagRule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/projects/{projectId}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a project's SDK keys (prefixes only), revoked ones included */
        get: operations["listApiKeys"];
        put?: never;
        /** Create an SDK key; the key is in this answer only */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/projects/{projectId}/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an SDK key
         * @description SDKs using it get 401 from their next request on every replica. Answers the revoked key.
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints with their recent health
         * @description A read key sees URLs with their path and query masked (they can be credentials).
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /** Add a webhook endpoint; the answer carries its whsec_ signing secret */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/webhook-endpoints/{endpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a webhook endpoint */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /** Delete a webhook endpoint */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /** Change an endpoint's URL, description, filters or format, or disable and re-enable it */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/api/manage/v1/webhook-endpoints/{endpointId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a sample event to the endpoint now and answer the attempt
         * @description The receiver's answer is reported, not raised: a failing receiver is a 200 with success false.
         */
        post: operations["sendTestWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/webhook-endpoints/{endpointId}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The endpoint's message log, newest first, with its delivery and every attempt
         * @description As the dashboard's message log filtered to this endpoint; filter by status and eventType. Keyset-paged: starting_after is the last message id of the page you have, and a page costs the same however long the log is. A read key sees the URL with path and query masked.
         */
        get: operations["listWebhookMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/projects/{projectId}/fleet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A project's fleet: per provider, its status and Healthy, Down, Recovering and stale instance counts
         * @description The fleet page's row of this project. Stale instances (silent past staleAfterSeconds) are counted apart and do not decide the status.
         */
        get: operations["getFleet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/projects/{projectId}/incidents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A project's provider incidents, newest first
         * @description Incidents opened in the last 30 (default) or 90 days, at most 500, as the dashboard's incident history lists them; filter by status (open, resolved) and provider.
         */
        get: operations["listIncidents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Spend and calls over a range, by day or hour, provider, model, tag and run
         * @description For one project (projectId) or the whole organization. Served from the hourly rollups: events received before rolledUpTo are in the figures. Money is decimal strings in USD; unpriced usage is counted in tokens, never as $0.
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the organization's members with their role (owners first) */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/members/{memberId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member from the organization */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        /**
         * Change a member's role
         * @description Only owners grant or take away the owner role, so a write key (an admin) cannot.
         */
        patch: operations["changeMemberRole"];
        trace?: never;
    };
    "/api/manage/v1/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List pending invitations, newest first (admins only: a read key gets 403) */
        get: operations["listInvitations"];
        put?: never;
        /**
         * Invite an email address with a role; the answer carries the accept link, once
         * @description As the dashboard's invite: the invitation names the member who created this key as its sender, and the audit log shows the key. 409 when the key's creator is no longer a member, or the address is already a member or invited. Only owners invite owners, so a write key (an admin) cannot.
         */
        post: operations["createInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a pending invitation (its link stops working) */
        delete: operations["revokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization's audit events, newest first
         * @description As in the dashboard, admins only: a write key reads the log, a read key gets 403. Events older than the plan's audit_log_days are not kept.
         */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/operator/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the plans with their latest version's price and entitlements */
        get: operations["listPlans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/operator/plans/{planSlug}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Save a new version of a plan: its price, entitlements, name and change note
         * @description As the operator console's plan editor: features not given keep the previous version's value, and an unknown feature or a value of the wrong type is a 422 on its field. expectedVersion is the latest version you read; when another version was saved since, the save is refused (409). Unpinned subscriptions follow the new version at once.
         */
        post: operations["createPlanVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/operator/organizations/{organization}/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Move an organization (id or slug) to a plan's latest version
         * @description Drops a version pin. Every replica's checks follow the new entitlements within a second.
         */
        put: operations["setOrganizationPlan"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/operator/organizations/{organization}/pin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Pin an organization to one version of its plan (grandfathering)
         * @description New versions of the plan no longer reach it until it is unpinned. 422 when the plan has no such version.
         */
        put: operations["pinOrganizationVersion"];
        post?: never;
        /** Unpin an organization: it follows its plan's latest version again */
        delete: operations["unpinOrganizationVersion"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/operator/organizations/{organization}/overrides": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an organization's entitlement overrides (its projects' too), newest first
         * @description Expired overrides are listed too (they no longer apply; see expiresAt).
         */
        get: operations["listOverrides"];
        put?: never;
        /**
         * Override one feature for an organization, with a reason and an optional expiry
         * @description Replaces an earlier override of the same feature. The value must fit the feature's type (422 on value); an expiry must lie in the future. Every replica's checks follow within a second.
         */
        post: operations["setOverride"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/operator/organizations/{organization}/overrides/{overrideId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove an override: the feature falls back to the plan's value */
        delete: operations["deleteOverride"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/manage/v1/operator/price-cards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the price catalogue's cards, by provider then model
         * @description search matches provider, model or an alias (case-insensitive substring).
         */
        get: operations["listPriceCards"];
        put?: never;
        /**
         * Add a price card: a model's rates, with its aliases and patterns
         * @description Validated as the operator console's card form: rates are decimal strings in USD per million tokens, and a model id, alias or pattern another card of the provider already answers to is a 422 on that field. Every replica prices with it within a second.
         */
        post: operations["createPriceCard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Project: {
            /** @example proj_0193b1a2c3d4e5f60718293a */
            id: string;
            organizationId: string;
            name: string;
            /** @enum {string} */
            mode: "alert_only" | "hard_deny";
            limits: {
                daily: number | null;
                weekly: number | null;
                monthly: number | null;
            };
            /** Format: date-time */
            createdAt: string;
        };
        Budget: {
            projectId: string;
            /** @enum {string} */
            mode: "alert_only" | "hard_deny";
            limits: {
                daily: number | null;
                weekly: number | null;
                monthly: number | null;
            };
            /** @description Alert thresholds, whole percent, ascending */
            thresholds: number[];
            /** @description Spend cap per agent run; null = none */
            runSpendCapUsd: number | null;
        };
        TagRule: {
            id: string;
            name: string;
            /** @description Tag name → value; every pair must match */
            selector: {
                [key: string]: string;
            };
            /** @enum {string} */
            period: "daily" | "weekly" | "monthly";
            /** @description US dollars */
            limitUsd: number;
            enabled: boolean;
            /** Format: date-time */
            updatedAt: string;
        };
        ApiKey: {
            id: string;
            projectId: string;
            name: string;
            /** @description The key's first characters, to tell keys apart */
            prefix: string;
            readOnly: boolean;
            /** Format: date-time */
            createdAt: string;
            lastUsedAt: string | null;
            expiresAt: string | null;
            revokedAt: string | null;
        };
        CreatedApiKey: {
            id: string;
            projectId: string;
            name: string;
            /** @description The key's first characters, to tell keys apart */
            prefix: string;
            readOnly: boolean;
            /** Format: date-time */
            createdAt: string;
            lastUsedAt: string | null;
            expiresAt: string | null;
            revokedAt: string | null;
            /** @description The SDK key itself: shown in this answer only, never again */
            key: string;
        };
        WebhookEndpoint: {
            id: string;
            organizationId: string;
            /** @description Only this project's events; null = every project */
            projectId: string | null;
            url: string;
            description: string;
            /** @description Empty = every event type */
            eventTypes: string[];
            /** @description Empty = every provider */
            providers: string[];
            /** @enum {string} */
            format: "standard" | "slack" | "pagerduty";
            routingKeyHint: string | null;
            enabled: boolean;
            disabledReason: string | null;
            failingSince: string | null;
            secretPrefix: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        WebhookEndpointSummary: {
            id: string;
            organizationId: string;
            /** @description Only this project's events; null = every project */
            projectId: string | null;
            url: string;
            description: string;
            /** @description Empty = every event type */
            eventTypes: string[];
            /** @description Empty = every provider */
            providers: string[];
            /** @enum {string} */
            format: "standard" | "slack" | "pagerduty";
            routingKeyHint: string | null;
            enabled: boolean;
            disabledReason: string | null;
            failingSince: string | null;
            secretPrefix: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            lastAttempt: {
                /** Format: date-time */
                at: string;
                success: boolean;
                responseStatus: number | null;
            } | null;
            last24h: {
                succeeded: number;
                failed: number;
                pending: number;
            };
        };
        CreatedWebhookEndpoint: {
            id: string;
            organizationId: string;
            /** @description Only this project's events; null = every project */
            projectId: string | null;
            url: string;
            description: string;
            /** @description Empty = every event type */
            eventTypes: string[];
            /** @description Empty = every provider */
            providers: string[];
            /** @enum {string} */
            format: "standard" | "slack" | "pagerduty";
            routingKeyHint: string | null;
            enabled: boolean;
            disabledReason: string | null;
            failingSince: string | null;
            secretPrefix: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description The whsec_ signing secret (admins can read it again later) */
            secret: string;
        };
        WebhookTestAttempt: {
            eventId: string;
            deliveryId: string;
            endpointId: string;
            trigger: string;
            success: boolean;
            statusCode: number | null;
            latencyMs: number;
            error: string | null;
            deliveryStatus: string;
        };
        WebhookMessage: {
            /** @description The event id, also the webhook-id header receivers see */
            id: string;
            type: string;
            projectId: string;
            episodeId: string | null;
            /** Format: date-time */
            createdAt: string;
            /** @description false when the plan did not include the event type's webhooks when it fired */
            deliverable: boolean;
            isTest: boolean;
            payload: unknown;
            /** @enum {string} */
            status: "pending" | "delivered" | "failed" | "not_deliverable" | "no_endpoints" | "rejected" | "exhausted";
            nextAttemptAt: string | null;
            lastError: string | null;
            /** @description This endpoint's delivery of the message, with every attempt */
            deliveries: {
                id: string;
                endpointId: string;
                endpointUrl: string;
                status: string;
                attemptCount: number;
                nextAttemptAt: string | null;
                lastAttemptAt: string | null;
                attempts: {
                    id: string;
                    attemptNumber: number;
                    /** @description scheduled, replay or test */
                    trigger: string;
                    /** Format: date-time */
                    startedAt: string;
                    latencyMs: number | null;
                    responseStatus: number | null;
                    success: boolean;
                    error: string | null;
                    responseSnippet: string | null;
                }[];
            }[];
        };
        Fleet: {
            projectId: string;
            /** Format: date-time */
            generatedAt: string;
            /** @description An instance silent this long is stale, not counted live */
            staleAfterSeconds: number;
            /**
             * @description The worst provider's; Unknown when nothing reported
             * @enum {string}
             */
            status: "Healthy" | "Down" | "Recovering" | "Unknown";
            /** @description Every provider the project's instances reported, by name */
            providers: {
                provider: string;
                /** @enum {string} */
                status: "Healthy" | "Down" | "Recovering" | "Unknown";
                /** @example 2 of 7 instances Down */
                summary: string;
                healthy: number;
                down: number;
                recovering: number;
                stale: number;
                openEpisodes: number;
                /** @description Since when Down or Recovering */
                since: string | null;
                lastReportAt: string | null;
                /** @description Live instances Down past their recovery window while a fallback serves */
                unprobed: number;
                unprobedNote: string | null;
            }[];
        };
        Incident: {
            id: string;
            projectId: string;
            projectName: string;
            provider: string;
            /** @enum {string} */
            status: "open" | "resolved";
            /** Format: date-time */
            openedAt: string;
            resolvedAt: string | null;
            /** @description Until resolvedAt, or until now while open */
            durationSeconds: number;
            affectedCount: number;
            liveCount: number;
            affectedShare: number;
            peakCount: number;
            peakShare: number;
            instancesInvolved: number;
            failovers: number;
            callsSaved: number;
            fallbackModels: string[];
            /** @description Affected and live instances over time */
            samples: {
                /** @description Epoch milliseconds */
                t: number;
                affected: number;
                live: number;
            }[];
        };
        Usage: {
            range: {
                from: string;
                to: string;
                /** Format: date-time */
                start: string;
                /** Format: date-time */
                end: string;
            };
            rolledUpTo: string | null;
            totals: {
                calls: number;
                errors: number;
                deniedCalls: number;
                fallbackCalls: number;
                savedByFallbackCalls: number;
                unpricedCalls: number;
                unpricedInputTokens: number;
                unpricedOutputTokens: number;
                inputTokens: number;
                outputTokens: number;
                /** @description US dollars as a decimal string */
                costUsd: string;
                /** @description US dollars as a decimal string */
                avoidedCostUsd: string;
            };
            series: {
                bucket: string;
                calls: number;
                /** @description US dollars as a decimal string */
                costUsd: string;
                deniedCalls: number;
                fallbackCalls: number;
                unpricedCalls: number;
            }[];
            byProvider: {
                provider: string;
                calls: number;
                errors: number;
                /** @description US dollars as a decimal string */
                costUsd: string;
                unpricedCalls: number;
                p50LatencyMs: number | null;
                p95LatencyMs: number | null;
            }[];
            byModel: {
                provider: string;
                model: string;
                calls: number;
                inputTokens: number;
                outputTokens: number;
                costUsd: string | null;
                unpricedCalls: number;
            }[];
            byTag: {
                key: string;
                value: string;
                calls: number;
                /** @description US dollars as a decimal string */
                costUsd: string;
                unpricedCalls: number;
                inputTokens: number;
                outputTokens: number;
            }[];
            byRun: {
                projectId: string;
                agentRunId: string;
                name: string | null;
                calls: number;
                /** @description US dollars as a decimal string */
                costUsd: string;
                /** @description US dollars as a decimal string */
                avoidedCostUsd: string;
                stopped: boolean;
            }[];
            failoversByReason: {
                reason: string;
                calls: number;
                saved: number;
            }[];
            limits: {
                projectId: string;
                projectName: string;
                /** @enum {string} */
                period: "daily" | "weekly" | "monthly";
                /** @description US dollars as a decimal string */
                limitUsd: string;
                /** @description US dollars as a decimal string */
                spentUsd: string;
                /** Format: date-time */
                windowStart: string;
                /** Format: date-time */
                windowEnd: string;
                percent: number;
            }[];
        };
        Member: {
            id: string;
            userId: string;
            name: string;
            email: string;
            /** @enum {string} */
            role: "viewer" | "member" | "admin" | "owner";
            /** Format: date-time */
            joinedAt: string;
        };
        Invitation: {
            id: string;
            email: string;
            /** @enum {string} */
            role: "viewer" | "member" | "admin" | "owner";
            inviterName: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            expiresAt: string;
            /** @description Pending but past its expiry: the link no longer works */
            expired: boolean;
        };
        CreatedInvitation: {
            id: string;
            email: string;
            /** @enum {string} */
            role: "viewer" | "member" | "admin" | "owner";
            inviterName: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            expiresAt: string;
            /** @description Pending but past its expiry: the link no longer works */
            expired: boolean;
            /** @description The accept link: in this answer only (only its hash is stored). Send it to the invitee. */
            url: string;
        };
        AuditEvent: {
            id: string;
            /** Format: date-time */
            createdAt: string;
            actor: {
                /** @description user, operator, management_key, api_key or system */
                type: string;
                id: string | null;
                /** @description A user's name, or a management key's name */
                name: string | null;
                email: string | null;
            };
            action: string;
            targetType: string;
            targetId: string;
            before: unknown;
            after: unknown;
        };
        Plan: {
            id: string;
            slug: string;
            name: string;
            /** @description Latest version: what new and unpinned subscriptions get */
            version: number;
            priceCents: number;
            entitlements: {
                [key: string]: boolean | number | null;
            };
            subscriptionCount: number;
            archived: boolean;
        };
        PlanVersion: {
            id: string;
            planSlug: string;
            planName: string;
            version: number;
            priceCents: number;
            entitlements: {
                [key: string]: boolean | number | null;
            };
            changeNote: string | null;
            /** Format: date-time */
            createdAt: string;
            createdById: string | null;
        };
        Subscription: {
            organizationId: string;
            planSlug: string;
            planName: string;
            pinnedVersion: number | null;
            effectiveVersion: number;
        };
        EntitlementOverride: {
            id: string;
            organizationId: string;
            /** @description Set for a project-level override */
            projectId: string | null;
            featureKey: string;
            value: boolean | number | null;
            reason: string;
            expiresAt: string | null;
            /** Format: date-time */
            createdAt: string;
            createdById: string | null;
        };
        PriceCard: {
            id: string;
            provider: string;
            model: string;
            aliases: string[];
            patterns: string[];
            unit: string;
            /** @description USD per million tokens, a decimal string */
            inputPerMtok: string;
            cachedInputPerMtok: string | null;
            cacheWrite5mPerMtok: string | null;
            cacheWrite1hPerMtok: string | null;
            /** @description USD per million tokens, a decimal string */
            outputPerMtok: string;
            longContext: {
                threshold: number;
                /** @description USD per million tokens, a decimal string */
                inputPerMtok: string;
                cachedInputPerMtok: string | null;
                cacheWrite5mPerMtok: string | null;
                cacheWrite1hPerMtok: string | null;
                /** @description USD per million tokens, a decimal string */
                outputPerMtok: string;
            } | null;
            unitPrices: {
                [key: string]: string;
            };
            regionMultipliers: {
                [key: string]: string;
            };
            tierMultipliers: {
                [key: string]: string;
            };
            source: string;
            sourceDate: string;
            notes: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            updatedById: string | null;
        };
        Problem: {
            /** @description Stable URI of the kind of error (urn:breakwater:problem:…) */
            type: string;
            title: string;
            status: number;
            detail?: string;
            instance?: string;
            /** @description Field errors of a 422: body fields by JSON Pointer, query parameters by name */
            errors?: ({
                pointer: string;
                detail: string;
            } | {
                parameter: string;
                detail: string;
            })[];
        };
    };
    responses: never;
    parameters: {
        /** @description Retries with the same key and body get the first answer (24 h); the same key with another body is refused (422). */
        IdempotencyKey: string;
        /** @description The ETag last read; a resource changed since is not overwritten (412). */
        IfMatch: string;
    };
    requestBodies: never;
    headers: {
        /** @description Requests allowed per window */
        "RateLimit-Limit": number;
        /** @description Requests left in this window */
        "RateLimit-Remaining": number;
        /** @description Seconds until the window resets */
        "RateLimit-Reset": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listProjects: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Project"][];
                        has_more: boolean;
                    };
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createProject: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key and body get the first answer (24 h); the same key with another body is refused (422). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /**
                     * @default alert_only
                     * @enum {string}
                     */
                    mode?: "alert_only" | "hard_deny";
                    /**
                     * @default {
                     *       "monthly": 100
                     *     }
                     */
                    limits?: {
                        daily?: number;
                        weekly?: number;
                        monthly?: number;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request with this Idempotency-Key is still being answered, a plan limit, or the resource's state forbids it */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getBudget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Entity tag of the resource */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Budget"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    replaceBudget: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag last read; a resource changed since is not overwritten (412). */
                "If-Match"?: components["parameters"]["IfMatch"];
            };
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    mode: "alert_only" | "hard_deny";
                    limits: {
                        daily: number | null;
                        weekly: number | null;
                        monthly: number | null;
                    };
                    thresholds: number[];
                    runSpendCapUsd: number | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Entity tag of the resource */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Budget"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description If-Match no longer matches: read again */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listTagRules: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
            };
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TagRule"][];
                        has_more: boolean;
                    };
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createTagRule: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key and body get the first answer (24 h); the same key with another body is refused (422). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    selector: {
                        [key: string]: string;
                    };
                    /** @enum {string} */
                    period: "daily" | "weekly" | "monthly";
                    limitUsd: number;
                    /** @default true */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TagRule"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request with this Idempotency-Key is still being answered, a plan limit, or the resource's state forbids it */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    replaceTagRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                ruleId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    selector: {
                        [key: string]: string;
                    };
                    /** @enum {string} */
                    period: "daily" | "weekly" | "monthly";
                    limitUsd: number;
                    /** @default true */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TagRule"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteTagRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                ruleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
            };
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiKey"][];
                        has_more: boolean;
                    };
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key and body get the first answer (24 h); the same key with another body is refused (422). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default Default key */
                    name?: string;
                    /** @default false */
                    readOnly?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKey"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request with this Idempotency-Key is still being answered, a plan limit, or the resource's state forbids it */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookEndpointSummary"][];
                        has_more: boolean;
                    };
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key and body get the first answer (24 h); the same key with another body is refused (422). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    projectId?: string;
                    url: string;
                    /** @default  */
                    description?: string;
                    eventTypes?: ("circuit_breaker_opened" | "circuit_breaker_closed" | "budget_threshold_crossed" | "provider_incident_opened" | "provider_incident_updated" | "provider_incident_resolved")[];
                    providers?: string[];
                    /**
                     * @default standard
                     * @enum {string}
                     */
                    format?: "standard" | "slack" | "pagerduty";
                    routingKey?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedWebhookEndpoint"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request with this Idempotency-Key is still being answered, a plan limit, or the resource's state forbids it */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    url?: string;
                    description?: string;
                    eventTypes?: ("circuit_breaker_opened" | "circuit_breaker_closed" | "budget_threshold_crossed" | "provider_incident_opened" | "provider_incident_updated" | "provider_incident_resolved")[];
                    providers?: string[];
                    /** @enum {string} */
                    format?: "standard" | "slack" | "pagerduty";
                    routingKey?: string;
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sendTestWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key and body get the first answer (24 h); the same key with another body is refused (422). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @default circuit_breaker_opened
                     * @enum {string}
                     */
                    eventType?: "circuit_breaker_opened" | "circuit_breaker_closed" | "budget_threshold_crossed" | "provider_incident_opened" | "provider_incident_updated" | "provider_incident_resolved";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTestAttempt"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request with this Idempotency-Key is still being answered, a plan limit, or the resource's state forbids it */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWebhookMessages: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
                status?: "pending" | "delivered" | "failed" | "not_deliverable" | "no_endpoints";
                eventType?: string;
            };
            header?: never;
            path: {
                endpointId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookMessage"][];
                        has_more: boolean;
                    };
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getFleet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Fleet"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listIncidents: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
                status?: "open" | "resolved";
                provider?: string;
                days?: "30" | "90";
            };
            header?: never;
            path: {
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Incident"][];
                        has_more: boolean;
                    };
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: {
                projectId?: string;
                from?: string;
                to?: string;
                lastHours?: number;
                granularity?: "day" | "hour";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Usage"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listMembers: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Member"][];
                        has_more: boolean;
                    };
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                memberId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    changeMemberRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                memberId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role: "viewer" | "member" | "admin" | "owner";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listInvitations: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Invitation"][];
                        has_more: boolean;
                    };
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createInvitation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key and body get the first answer (24 h); the same key with another body is refused (422). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    /** @enum {string} */
                    role: "viewer" | "member" | "admin" | "owner";
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedInvitation"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request with this Idempotency-Key is still being answered, a plan limit, or the resource's state forbids it */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    revokeInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listAuditEvents: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
                kind?: string;
                actor?: string;
                from?: string;
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AuditEvent"][];
                        has_more: boolean;
                    };
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listPlans: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Plan"][];
                        has_more: boolean;
                    };
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createPlanVersion: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key and body get the first answer (24 h); the same key with another body is refused (422). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                planSlug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    expectedVersion: number;
                    name?: string;
                    priceCents?: number;
                    entitlements?: {
                        [key: string]: unknown;
                    };
                    changeNote?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanVersion"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request with this Idempotency-Key is still being answered, a plan limit, or the resource's state forbids it */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    setOrganizationPlan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    planSlug: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    pinOrganizationVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    version: number;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    unpinOrganizationVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listOverrides: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
            };
            header?: never;
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["EntitlementOverride"][];
                        has_more: boolean;
                    };
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    setOverride: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key and body get the first answer (24 h); the same key with another body is refused (422). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                organization: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    featureKey: string;
                    /** @description Of the feature's type: true or false, a whole number ≥ 0, or null (unlimited) on a limit */
                    value: unknown;
                    reason: string;
                    /** @description An ISO 8601 time in the future; absent or null = never */
                    expiresAt?: unknown | null;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EntitlementOverride"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request with this Idempotency-Key is still being answered, a plan limit, or the resource's state forbids it */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteOverride: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                organization: string;
                overrideId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done */
            204: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listPriceCards: {
        parameters: {
            query?: {
                limit?: number;
                starting_after?: string;
                search?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PriceCard"][];
                        has_more: boolean;
                    };
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createPriceCard: {
        parameters: {
            query?: never;
            header?: {
                /** @description Retries with the same key and body get the first answer (24 h); the same key with another body is refused (422). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    provider: "openai" | "anthropic" | "google" | "bedrock" | "xai" | "deepseek" | "mistral" | "qwen" | "zai" | "groq" | "together" | "fireworks" | "perplexity" | "azure_openai" | "openrouter" | "ollama" | "vllm" | "lmstudio" | "openai_compatible";
                    model: string;
                    /** @default [] */
                    aliases?: string[];
                    /** @default [] */
                    patterns?: string[];
                    /**
                     * @default token
                     * @enum {string}
                     */
                    unit?: "token" | "image" | "second" | "minute" | "mchar";
                    inputPerMtok: string;
                    cachedInputPerMtok?: string | null;
                    cacheWrite5mPerMtok?: string | null;
                    cacheWrite1hPerMtok?: string | null;
                    outputPerMtok: string;
                    longContext?: {
                        threshold?: number | null;
                        inputPerMtok?: string | null;
                        cachedInputPerMtok?: string | null;
                        cacheWrite5mPerMtok?: string | null;
                        cacheWrite1hPerMtok?: string | null;
                        outputPerMtok?: string | null;
                    } | null;
                    /** @default {} */
                    unitPrices?: {
                        [key: string]: string;
                    };
                    /** @default {} */
                    regionMultipliers?: {
                        [key: string]: string;
                    };
                    /** @default {} */
                    tierMultipliers?: {
                        [key: string]: string;
                    };
                    notes?: string | null;
                    source: string;
                    sourceDate: string;
                };
            };
        };
        responses: {
            /** @description OK */
            201: {
                headers: {
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PriceCard"];
                };
            };
            /** @description No key, or not a live management key (SDK keys are refused) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The key's scope does not allow this */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in the key's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description A request with this Idempotency-Key is still being answered, a plan limit, or the resource's state forbids it */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Invalid body or query (field errors in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Over the key's rate limit */
            429: {
                headers: {
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}
