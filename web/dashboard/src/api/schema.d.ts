// Generated from openapi/orchestrator.json by scripts/dashboard-types.ts (npm run openapi:sync): do not edit.

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness and database reachability (loopback callers get process details) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ok";
                            timestamp: string;
                            version?: string;
                            pid?: number;
                            projectRoot?: string;
                            terminalEnabled?: boolean;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "unavailable";
                            timestamp: string;
                            /** @description the dependencies that cannot be reached */
                            down: "database"[];
                            reason: string;
                            version?: string;
                            pid?: number;
                            projectRoot?: string;
                            terminalEnabled?: boolean;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness and database reachability (loopback callers get process details) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ok";
                            timestamp: string;
                            version?: string;
                            pid?: number;
                            projectRoot?: string;
                            terminalEnabled?: boolean;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "unavailable";
                            timestamp: string;
                            /** @description the dependencies that cannot be reached */
                            down: "database"[];
                            reason: string;
                            version?: string;
                            pid?: number;
                            projectRoot?: string;
                            terminalEnabled?: boolean;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/enterprise/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            status: string;
                            users: number;
                            createdAt: string;
                        }[];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        status?: "active" | "suspended";
                        users?: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            status: string;
                            users: number;
                            createdAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/enterprise/rbac": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            role: string;
                            permissions: string[];
                            builtIn: boolean;
                        }[];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        role: string;
                        permissions: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            role: string;
                            permissions: string[];
                            builtIn: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/enterprise/rate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id?: string;
                            endpoint: string;
                            limit: number;
                            remaining: number;
                            resetAt: string;
                        }[];
                    };
                };
            };
        };
        put?: never;
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        id: string;
                        endpoint: string;
                        limit: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            endpoint: string;
                            limit: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/enterprise/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    action?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            seq: number;
                            action: string;
                            actor: string;
                            tenant: string;
                            resource: string;
                            timestamp: string;
                            result: string;
                            gate: string;
                            status: number;
                        }[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/enterprise/audit/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Walks the audit chain: the first missing, reordered or tampered record */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ok: boolean;
                            records: number;
                            firstBroken: null | {
                                seq: number;
                                reason: "missing" | "reordered" | "tampered";
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/enterprise/missions-audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            action: string;
                            actor: string;
                            tenant: string;
                            resource: string;
                            timestamp: string;
                            result: string;
                        }[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/enterprise/tenants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        status?: "active" | "suspended";
                        users?: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            status: string;
                            users: number;
                            createdAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            ok: true;
                            id: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/enterprise/rbac/{role}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    role: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        permissions: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            role: string;
                            permissions: string[];
                            builtIn: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    role: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            ok: true;
                            id: string;
                            role: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/enterprise/rate/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        endpoint?: string;
                        limit?: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            endpoint: string;
                            limit: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        post?: never;
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            ok: true;
                            id: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The verified caller: mode (static API token or OIDC), subject, tenant and role */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            authenticated: true;
                            mode: "static" | "oidc" | "local";
                            subject: string;
                            tenant: string;
                            tenantClaimed: boolean;
                            role: string;
                            roles: string[];
                            sub?: string;
                            email?: string;
                            name?: string;
                            preferredUsername?: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oidc/exchange": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange an authorization code (PKCE) at the configured issuer for a Quartet session token */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        code?: string;
                        code_verifier?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            token: string;
                            expiresAt: string;
                            claims: {
                                sub: string;
                                email?: string;
                                name?: string;
                                preferredUsername?: string;
                                role?: string;
                                tenant?: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            reason?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            reason?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            reason?: string;
                        };
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            reason?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/directives": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** DIRECTIVES.md ("" when missing) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Replace DIRECTIVES.md */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        content?: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success: boolean;
                            taskCount: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/set-directives": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace DIRECTIVES.md */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        content?: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success: boolean;
                            taskCount: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Plan a sprint from DIRECTIVES.md (or the directive given) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        directive?: string;
                        mode?: "ai" | "structured" | "auto";
                        force?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            number: number;
                            title: string;
                            status: string;
                            mode: string;
                            warnings: string[];
                            tasks: {
                                id: string;
                                key: string;
                                title: string;
                                status: string;
                                priority: string;
                                dependencies: string[];
                                agent: string | null;
                                risk: string | null;
                            }[];
                            /** @description the sprint a forced plan replaced, with the unfinished tasks it cancelled as abandoned */
                            abandoned?: {
                                sprintId: string;
                                status: string;
                                tasks: string[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start the planned sprint as a detached job (resume: continue an orphaned or killed one) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        resume?: boolean;
                        /** @description accepted as false only: approvals are decided by humans */
                        autoApprove?: boolean;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            jobId: number;
                            sprintId: string;
                            status: string;
                            created: boolean;
                            pid: number | null;
                            missionId: string | null;
                        };
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            jobId: number;
                            sprintId: string;
                            status: string;
                            created: boolean;
                            pid: number | null;
                            missionId: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/kill/all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop the running job and every agent it started */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success: boolean;
                            /** @description tasks cancelled by the kill */
                            killed: number;
                            jobId: number | null;
                            killedPids: number[];
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/kill/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop one task (its agent process group) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success: boolean;
                            killed: boolean;
                            taskId: string;
                            killedPids: number[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/cleanup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Remove finished worktrees; work that is uncommitted or unmerged is kept and reported */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            success: boolean;
                            removed: {
                                path: string;
                                branch: string;
                            }[];
                            kept: {
                                path: string;
                                branch: string;
                                reason: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project file .quartet/config.json as written */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Deep-merge into .quartet/config.json (null deletes a key); validated, written atomically */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": unknown;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/config/defaults": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Built-in defaults */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reconciled run status (idle, or the run with its lifecycle, progress, workers and alerts) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            sprint: {
                                id: string | null;
                                number?: number;
                                title?: string;
                                phase: string;
                                status: string;
                            };
                            agents: {
                                taskId: string;
                                title: string;
                                taskStatus: string;
                                agent: string | null;
                                branch: string | null;
                                worktree: string | null;
                                workerId: string | null;
                                status: string;
                                currentAction: string;
                                filesChangedCount: number;
                                sequence: number;
                                timestamp: string | null;
                                ageMs: number | null;
                                stale: boolean;
                            }[];
                            progress: {
                                done: number;
                                active: number;
                                blocked: number;
                                noGo: number;
                                pending: number;
                                orphaned: number;
                                cancelled: number;
                                total: number;
                            };
                            alerts: {
                                level: string;
                                code: string;
                                message: string;
                                source: string;
                                timestamp: string;
                            }[];
                            lifecycle: "IDLE" | "ACTIVE" | "ORPHANED" | "COMPLETE" | "ABORTED";
                            active: boolean;
                            resumable: boolean;
                            recoveryCommand: string | null;
                            statusReadModel: {
                                state: string;
                                source: string;
                                revision: number;
                            };
                            updatedAt: string;
                            idle: boolean;
                            lastSprint?: {
                                id: string;
                                title: string;
                                status: string;
                                metrics: {
                                    tasks: string;
                                    completed: string;
                                    noGoRate: string;
                                    coverage: string;
                                    duration: string;
                                };
                                tasks: string[];
                            } | null;
                            job?: {
                                id: number;
                                status: string;
                                pid: number | null;
                                hostname: string | null;
                                resume: boolean;
                                startedAt: string | null;
                                heartbeatAt: string | null;
                            } | null;
                            usage?: {
                                tokensUsed: number;
                                costUsd: number;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sprint": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The newest sprint: metrics and one line per task */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            title: string;
                            status: string;
                            metrics: {
                                tasks: string;
                                completed: string;
                                noGoRate: string;
                                coverage: string;
                                duration: string;
                            };
                            tasks: string[];
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every sprint of the project, newest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            sprint: string;
                            number: number;
                            status: string;
                            tasks: string;
                            completed: string;
                            noGoRate: string;
                            coverage: string;
                            duration: string;
                            agents: string;
                            skills: string;
                            durationMs: number | null;
                            startedAt: string | null;
                            finishedAt: string | null;
                            stopReason: string | null;
                            tokensUsed: number;
                            costUsd: number;
                        }[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sprint/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Run-inspector snapshot: canonical lifecycle, every task of the run with its heartbeat, revision */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {number} */
                            schemaVersion: 1;
                            generatedAt: string;
                            revision: number;
                            lifecycle: {
                                /** @enum {number} */
                                schemaVersion: 1;
                                lifecycle: "IDLE" | "ACTIVE" | "ORPHANED" | "COMPLETE" | "ABORTED";
                                active: boolean;
                                resumable: boolean;
                                sprintId: string | null;
                                phase: string | null;
                                status: string;
                                reason: string | null;
                                recoveryCommand: string | null;
                                finalizeCommand: null;
                                coordinator: string;
                                conflicts: {
                                    surface: string;
                                    sprintId: string;
                                    value: string;
                                }[];
                            };
                            sprintId: string | null;
                            phase: string | null;
                            workers: {
                                taskId: string;
                                title: string;
                                status: string;
                                agent: string | null;
                                model: string | null;
                                filesWrite: string[];
                                hb: {
                                    status: string;
                                    currentAction: string;
                                    currentFile: null;
                                    filesChangedCount: number;
                                    sequence: number;
                                    timestamp: string;
                                    ageMs: number;
                                    stale: boolean;
                                } | null;
                            }[];
                            locks: {
                                filePath: string;
                                ownerWorkerId: string;
                                acquiredAt: string;
                                taskId: string;
                            }[];
                            active: boolean;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/job/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A detached job as it really is (reconciled against its process) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: number;
                            sprintId: string;
                            status: string;
                            pid: number | null;
                            result?: unknown;
                            error?: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Tasks of the newest sprint (or of ?sprint=<id>), in plan order */
        get: {
            parameters: {
                query?: {
                    sprint?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            key: string;
                            title: string;
                            description: string;
                            priority: string;
                            dependencies: string[];
                            scope: {
                                filesWrite: string[];
                            };
                            goNogo: {
                                goCriteria: string[];
                                noGoCriteria: string[];
                            };
                            status: string;
                            sprintId: string;
                            assignedAgent: string | null;
                            branch: string | null;
                            worktree: string | null;
                            commit: string | null;
                            reason: string | null;
                            attempts: number;
                            filesChanged: string[];
                            createdAt: string;
                            updatedAt: string;
                            startedAt: string | null;
                            finishedAt: string | null;
                            usage: {
                                inputTokens: number;
                                outputTokens: number;
                                costUsd: number | null;
                            };
                            xverify: {
                                verdict: "CONFIRMED" | "REFUTED" | "UNCLEAR" | "HOLD" | "SKIPPED";
                                closed: boolean;
                                reason: string;
                                author: {
                                    agent: string;
                                    provider: string;
                                } | null;
                                verifier: {
                                    agent: string;
                                    provider: string;
                                    model: string;
                                } | null;
                                receiptRef: string | null;
                                settlement: "closed" | "held" | null;
                                at: string;
                            } | null;
                        }[];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sprint/task/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One task: its plan, last result, heartbeat, current run and log tail (tailLines 1..200, default 40) */
        get: {
            parameters: {
                query?: {
                    tailLines?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            taskId: string;
                            task: {
                                id: string;
                                key: string;
                                title: string;
                                description: string;
                                priority: string;
                                dependencies: string[];
                                scope: {
                                    filesWrite: string[];
                                };
                                goNogo: {
                                    goCriteria: string[];
                                    noGoCriteria: string[];
                                };
                                status: string;
                                sprintId: string;
                                assignedAgent: string | null;
                                branch: string | null;
                                worktree: string | null;
                                commit: string | null;
                                reason: string | null;
                                attempts: number;
                                filesChanged: string[];
                                createdAt: string;
                                updatedAt: string;
                                startedAt: string | null;
                                finishedAt: string | null;
                                usage: {
                                    inputTokens: number;
                                    outputTokens: number;
                                    costUsd: number | null;
                                };
                                xverify: {
                                    verdict: "CONFIRMED" | "REFUTED" | "UNCLEAR" | "HOLD" | "SKIPPED";
                                    closed: boolean;
                                    reason: string;
                                    author: {
                                        agent: string;
                                        provider: string;
                                    } | null;
                                    verifier: {
                                        agent: string;
                                        provider: string;
                                        model: string;
                                    } | null;
                                    receiptRef: string | null;
                                    settlement: "closed" | "held" | null;
                                    at: string;
                                } | null;
                            };
                            currentRun: {
                                attempt: number;
                                agent: string;
                                jobId: number;
                                startedAt: string;
                            } | null;
                            plan: {
                                text: string;
                                truncated: boolean;
                            } | null;
                            result: {
                                status: string;
                                reason: string | null;
                                exitCode: number | null;
                                attempt: number;
                                agent: string;
                                filesChanged: string[];
                                commit: string | null;
                                branch: string | null;
                                agentMs: number | null;
                                usage: {
                                    inputTokens: number;
                                    outputTokens: number;
                                    costUsd: number | null;
                                    model: string | null;
                                };
                                startedAt: string;
                                finishedAt: string | null;
                            } | null;
                            hb: {
                                workerId: string;
                                taskId: string;
                                status: string;
                                currentAction: string;
                                filesChangedCount: number;
                                sequence: number;
                                timestamp: string;
                                ageMs: number;
                                stale: boolean;
                            } | null;
                            lineage: {
                                logPath: string;
                                logTailAvailable: boolean;
                                logTail: {
                                    lines: string[];
                                    truncated: boolean;
                                } | null;
                                resultEvidence: {
                                    selfAssessment: null;
                                    filesChanged: string[];
                                    notesPresent: boolean;
                                } | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Heartbeats of the newest sprint (stale after 120 s) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            workerId: string | null;
                            taskId: string;
                            status: string;
                            sequence: number;
                            timestamp: string | null;
                            taskTitle: string | null;
                            taskStatus: string | null;
                            currentAction: string;
                            filesChangedCount: number;
                            ageMs: number;
                            stale: boolean;
                        }[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/worker/{taskId}/log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The worker log of a task (its last 64,000 characters) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    taskId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            taskId: string;
                            log: string;
                            truncated: boolean;
                            task: {
                                id: string;
                                key: string;
                                title: string;
                                description: string;
                                priority: string;
                                dependencies: string[];
                                scope: {
                                    filesWrite: string[];
                                };
                                goNogo: {
                                    goCriteria: string[];
                                    noGoCriteria: string[];
                                };
                                status: string;
                                sprintId: string;
                                assignedAgent: string | null;
                                branch: string | null;
                                worktree: string | null;
                                commit: string | null;
                                reason: string | null;
                                attempts: number;
                                filesChanged: string[];
                                createdAt: string;
                                updatedAt: string;
                                startedAt: string | null;
                                finishedAt: string | null;
                                usage: {
                                    inputTokens: number;
                                    outputTokens: number;
                                    costUsd: number | null;
                                };
                                xverify: {
                                    verdict: "CONFIRMED" | "REFUTED" | "UNCLEAR" | "HOLD" | "SKIPPED";
                                    closed: boolean;
                                    reason: string;
                                    author: {
                                        agent: string;
                                        provider: string;
                                    } | null;
                                    verifier: {
                                        agent: string;
                                        provider: string;
                                        model: string;
                                    } | null;
                                    receiptRef: string | null;
                                    settlement: "closed" | "held" | null;
                                    at: string;
                                } | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Configured agents with their recorded usage (attempts, DONE rate, tokens, cost, median agent time) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            source: string;
                            enabled: boolean;
                            totalUses: number;
                            successRate: number | null;
                            validity: string;
                            routable: boolean;
                            provenance: {
                                file: string | null;
                                key: string | null;
                                default: boolean;
                            };
                            prompt: string | null;
                            diagnostics: string[];
                            kind: string | null;
                            usage: {
                                attempts: number;
                                done: number;
                                noGo: number;
                                cancelled: number;
                                inputTokens: number;
                                outputTokens: number;
                                costUsd: number;
                                medianAgentMs: number | null;
                            };
                        }[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/routing/distribution": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Share of recorded attempts per agent, with an IMBALANCE warning above 80 % */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agents: {
                                entries: {
                                    id: string;
                                    tasks: number;
                                    pct: number;
                                }[];
                                total: number;
                            };
                            skills: {
                                entries: {
                                    id: string;
                                    tasks: number;
                                    pct: number;
                                }[];
                                total: number;
                            };
                            warnings: string[];
                            totalOutcomes: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/coverage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Coverage measured after each sprint, and the configured per-sprint target */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            history: {
                                sprintId: string;
                                coverage: number | null;
                                tasks: number;
                                completed: number;
                            }[];
                            budget: {
                                perSprint: number | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Doc freshness from git history, with a rank × state heatmap */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            note?: string;
                            rows: {
                                path: string;
                                doc_rank: number;
                                state: string;
                                lastDocCommit: string | null;
                                lastCodeCommit: string | null;
                                daysBehind: number;
                            }[];
                            heatmap: {
                                bucket: string;
                                state: string;
                                count: number;
                            }[];
                            generatedAt: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/evaluate-health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Evaluation faults over the last n sprints (default 20, max 200) */
        get: {
            parameters: {
                query?: {
                    n?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            counts: {
                                EVALUATION_FAULT: number;
                                EVALUATE_ABORTED: number;
                                EVALUATE_PREMATURE: number;
                                RESULT_CONTRACT_DRIFT: number;
                            };
                            lastEventAt: string | null;
                            sprintsScanned: number;
                            clean: boolean;
                            generatedAt: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recorded usage against each configured limits.windows entry (warn ≥ 70 %, block ≥ 90 %) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            unavailable: boolean;
                            reason: string | null;
                            windows: {
                                name: string;
                                hours: number;
                                pct: number;
                                used: {
                                    tokens: number;
                                    usd: number;
                                };
                                limit: {
                                    tokens: number | null;
                                    usd: number | null;
                                };
                                resetAt: {
                                    text: string;
                                    timezone: null;
                                } | null;
                                verdict: "ok" | "warn" | "block";
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/kpi": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** KPI scorecard of a sprint (default: the newest) */
        get: {
            parameters: {
                query?: {
                    sprint?: string;
                    tenantId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            sprintId: string | null;
                            kpis: {
                                id: string;
                                title: {
                                    en: string;
                                };
                                value: number | null;
                                target: number | null;
                                status: string;
                                direction: string;
                                format: string;
                                unit: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/kpi/trend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One KPI over the last n sprints, oldest first (n default 12, max 100) */
        get: {
            parameters: {
                query?: {
                    kpiId?: string;
                    n?: string;
                    tenantId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            kpiId: string;
                            series: {
                                periodKey: string;
                                value: number | null;
                                status: string;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/doctor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness diagnostics: git, data directory, project config, agents */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ok: boolean;
                            checks: {
                                name: string;
                                passed: boolean;
                                message: string;
                                required: boolean;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/debt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The active debt entries of the memory (NO_GO and BLOCKED tasks of the recent sprints) as markdown ("" when none) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/git/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Branch, ahead/behind, porcelain entries, and the engine's task branches */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            note?: string;
                            branch: string | null;
                            ahead: number;
                            behind: number;
                            entries: {
                                path: string;
                                code: string;
                            }[];
                            clean: boolean;
                            taskBranches: {
                                branch: string;
                                sprintId: string | null;
                                taskId: string | null;
                                head: string;
                                ahead: number;
                                uncommitted: boolean;
                                merged: boolean;
                                commits: {
                                    sha: string;
                                    subject: string;
                                }[];
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/git/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** git diff HEAD (or --staged with staged=1|true), capped at 64,000 characters */
        get: {
            parameters: {
                query?: {
                    staged?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            note?: string;
                            text: string;
                            truncated: boolean;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/git/proposal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Changed files with line counts and a suggested commit message */
        get: {
            parameters: {
                query?: {
                    flowId?: string;
                    intent?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            note?: string;
                            files: {
                                path: string;
                                insertions: number;
                                deletions: number;
                            }[];
                            insertions: number;
                            deletions: number;
                            suggestedMessage: string;
                            taskBranches: {
                                branch: string;
                                sprintId: string | null;
                                taskId: string | null;
                                head: string;
                                ahead: number;
                                uncommitted: boolean;
                                merged: boolean;
                                commits: {
                                    sha: string;
                                    subject: string;
                                }[];
                            }[];
                            /** @description the branch checked out (null: detached HEAD or not a repository) */
                            target: string | null;
                            /** @description the newest sprint's DONE tasks with a branch, each merged against the target in the object store only */
                            tasks: {
                                taskId: string;
                                title: string;
                                branch: string;
                                head: string;
                                /** @description READY: contains the target; BEHIND: the target moved since, merges cleanly; CONFLICT: see files; MERGED: already in the target */
                                state: "READY" | "BEHIND" | "CONFLICT" | "MERGED";
                                /** @description conflicted files (CONFLICT) */
                                files: string[];
                                /** @description commits on the target the branch lacks */
                                behind: number;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Approval requests by category (arguments masked) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            pending: {
                                category: "pending" | "approved" | "denied" | "expired";
                                effect: "allow" | "deny" | null;
                                request: {
                                    id: string;
                                    version: string;
                                    requester: {
                                        kind: string;
                                        id: string;
                                    };
                                    summary: string;
                                    scope: string;
                                    risk: string;
                                    policy: string;
                                    defaultAction: string;
                                    taskId: string | null;
                                    scopeId: string | null;
                                    toolName: string | null;
                                    maskedArgs: unknown;
                                    createdAt: string;
                                    expiresAt: string;
                                };
                                decision: {
                                    requestId: string;
                                    decision: string;
                                    decidedBy: string;
                                    channel: string;
                                    decidedAt: string;
                                    reason: string;
                                    closureReason?: string;
                                } | null;
                            }[];
                            approved: {
                                category: "pending" | "approved" | "denied" | "expired";
                                effect: "allow" | "deny" | null;
                                request: {
                                    id: string;
                                    version: string;
                                    requester: {
                                        kind: string;
                                        id: string;
                                    };
                                    summary: string;
                                    scope: string;
                                    risk: string;
                                    policy: string;
                                    defaultAction: string;
                                    taskId: string | null;
                                    scopeId: string | null;
                                    toolName: string | null;
                                    maskedArgs: unknown;
                                    createdAt: string;
                                    expiresAt: string;
                                };
                                decision: {
                                    requestId: string;
                                    decision: string;
                                    decidedBy: string;
                                    channel: string;
                                    decidedAt: string;
                                    reason: string;
                                    closureReason?: string;
                                } | null;
                            }[];
                            denied: {
                                category: "pending" | "approved" | "denied" | "expired";
                                effect: "allow" | "deny" | null;
                                request: {
                                    id: string;
                                    version: string;
                                    requester: {
                                        kind: string;
                                        id: string;
                                    };
                                    summary: string;
                                    scope: string;
                                    risk: string;
                                    policy: string;
                                    defaultAction: string;
                                    taskId: string | null;
                                    scopeId: string | null;
                                    toolName: string | null;
                                    maskedArgs: unknown;
                                    createdAt: string;
                                    expiresAt: string;
                                };
                                decision: {
                                    requestId: string;
                                    decision: string;
                                    decidedBy: string;
                                    channel: string;
                                    decidedAt: string;
                                    reason: string;
                                    closureReason?: string;
                                } | null;
                            }[];
                            expired: {
                                category: "pending" | "approved" | "denied" | "expired";
                                effect: "allow" | "deny" | null;
                                request: {
                                    id: string;
                                    version: string;
                                    requester: {
                                        kind: string;
                                        id: string;
                                    };
                                    summary: string;
                                    scope: string;
                                    risk: string;
                                    policy: string;
                                    defaultAction: string;
                                    taskId: string | null;
                                    scopeId: string | null;
                                    toolName: string | null;
                                    maskedArgs: unknown;
                                    createdAt: string;
                                    expiresAt: string;
                                };
                                decision: {
                                    requestId: string;
                                    decision: string;
                                    decidedBy: string;
                                    channel: string;
                                    decidedAt: string;
                                    reason: string;
                                    closureReason?: string;
                                } | null;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/approvals/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Closed approval requests, newest first (status, limit 1..100, offset) */
        get: {
            parameters: {
                query?: {
                    status?: "all" | "approved" | "denied" | "expired";
                    limit?: number;
                    offset?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entries: {
                                id: string;
                                summary: string;
                                scope: string;
                                risk: string;
                                policy: string;
                                maskedArgs: unknown;
                                category: "pending" | "approved" | "denied" | "expired";
                                channel: string | null;
                                decidedBy: string | null;
                                decidedAt: string | null;
                                reason: string | null;
                                createdAt: string;
                                expiresAt: string;
                            }[];
                            pagination: {
                                total: number;
                                limit: number;
                                offset: number;
                                hasMore: boolean;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/approvals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One approval request with its decision */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            category: "pending" | "approved" | "denied" | "expired";
                            effect: "allow" | "deny" | null;
                            request: {
                                id: string;
                                version: string;
                                requester: {
                                    kind: string;
                                    id: string;
                                };
                                summary: string;
                                scope: string;
                                risk: string;
                                policy: string;
                                defaultAction: string;
                                taskId: string | null;
                                scopeId: string | null;
                                toolName: string | null;
                                maskedArgs: unknown;
                                createdAt: string;
                                expiresAt: string;
                            };
                            decision: {
                                requestId: string;
                                decision: string;
                                decidedBy: string;
                                channel: string;
                                decidedAt: string;
                                reason: string;
                                closureReason?: string;
                            } | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/approvals/{id}/wait": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Long-poll: answers when the request is closed, or after ?timeout= seconds (0..60, default 25) with it still pending */
        get: {
            parameters: {
                query?: {
                    timeout?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            category: "pending" | "approved" | "denied" | "expired";
                            effect: "allow" | "deny" | null;
                            request: {
                                id: string;
                                version: string;
                                requester: {
                                    kind: string;
                                    id: string;
                                };
                                summary: string;
                                scope: string;
                                risk: string;
                                policy: string;
                                defaultAction: string;
                                taskId: string | null;
                                scopeId: string | null;
                                toolName: string | null;
                                maskedArgs: unknown;
                                createdAt: string;
                                expiresAt: string;
                            };
                            decision: {
                                requestId: string;
                                decision: string;
                                decidedBy: string;
                                channel: string;
                                decidedAt: string;
                                reason: string;
                                closureReason?: string;
                            } | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/approvals/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** An agent's permission request: recorded pending with masked arguments (answer it with /wait) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        toolName: string;
                        input: {
                            [key: string]: unknown;
                        };
                        toolUseId?: string;
                        summary?: string;
                        requester?: string;
                        taskId?: string;
                        scope?: "file-read" | "file-write" | "shell-exec" | "git-mutation" | "network" | "credential" | "lifecycle";
                        risk?: "none" | "low" | "medium" | "high" | "critical";
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            category: "pending" | "approved" | "denied" | "expired";
                            effect: "allow" | "deny" | null;
                            request: {
                                id: string;
                                version: string;
                                requester: {
                                    kind: string;
                                    id: string;
                                };
                                summary: string;
                                scope: string;
                                risk: string;
                                policy: string;
                                defaultAction: string;
                                taskId: string | null;
                                scopeId: string | null;
                                toolName: string | null;
                                maskedArgs: unknown;
                                createdAt: string;
                                expiresAt: string;
                            };
                            decision: {
                                requestId: string;
                                decision: string;
                                decidedBy: string;
                                channel: string;
                                decidedAt: string;
                                reason: string;
                                closureReason?: string;
                            } | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/approvals/{id}/decision": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Decide a pending request (approval.api_decide must be on; Idempotency-Key required) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        decision: "allow" | "deny" | "defer" | "escalate";
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            decision: {
                                requestId: string;
                                decision: string;
                                decidedBy: string;
                                channel: string;
                                decidedAt: string;
                                reason: string;
                                closureReason?: string;
                            };
                            idempotent: boolean;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/memory/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** With v=1: a bounded view (AVAILABLE, ABSENT or a typed HOLD, always 200). Without v: the legacy array of {entry, relevance}; a held read is 409, a failed one 503 */
        get: {
            parameters: {
                query?: {
                    /** @description 1 for the versioned view; absent for the legacy array */
                    v?: string | string[];
                    /** @description words to match (full-text; letters and digits) */
                    q?: string | string[];
                    /** @description comma-separated entry types */
                    type?: string | string[];
                    /** @description comma-separated statuses */
                    status?: string | string[];
                    /** @description lowest sprint number (non-negative integer) */
                    sprint_min?: string | string[];
                    /** @description and | or (default or): whether every word or any word must match */
                    mode?: string | string[];
                    /** @description at most this many entries (positive integer, capped by the budget) */
                    limit?: string | string[];
                    /** @description nextCursor of the previous page */
                    cursor?: string | string[];
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {number} */
                            schemaVersion: 1;
                            view: {
                                /** @enum {string} */
                                state: "AVAILABLE";
                                consumer: string;
                                scope: {
                                    /** @enum {string} */
                                    kind: "local-project" | "tenant";
                                    projectId: number;
                                    tenantId: string;
                                };
                                limits: {
                                    maxEntries: number;
                                    maxCandidates: number;
                                    maxBytes: number;
                                    maxLines: number;
                                };
                                selectionRevisionDigest: string;
                                queryDigest: string;
                                scopeDigest: string;
                                limitsDigest: string;
                                candidates: {
                                    id: number;
                                    type: string;
                                    source: string;
                                    titlePreview: string;
                                    summaryPreview: string | null;
                                    status: string;
                                    priority: string;
                                    sprintId: string | null;
                                    sprintOrdinal: number | null;
                                    language: string;
                                    tenantId: string;
                                    createdAt: string;
                                    updatedAt: string;
                                    contentByteLength: number;
                                    contentLineCount: number;
                                    recordByteLengthFloor: number;
                                    relevance: number;
                                    candidateDigest: string;
                                }[];
                                entries: {
                                    entry: {
                                        id: number;
                                        type: string;
                                        source: string;
                                        title: string;
                                        content: string;
                                        summary: string | null;
                                        tags: string;
                                        status: string;
                                        priority: string;
                                        sprint_id: string | null;
                                        sprint_num: number | null;
                                        lang: string;
                                        /** @description JSON object as text */
                                        metadata: string;
                                        tenant_id: string;
                                        created_at: string;
                                        updated_at: string;
                                    };
                                    relevance: number;
                                    contentDigest: string;
                                    reasons: ("QUERY_MATCH" | "REQUIRED" | "PREFERRED_LATEST" | "CRITICAL")[];
                                }[];
                                deferred: {
                                    candidate: {
                                        id: number;
                                        type: string;
                                        source: string;
                                        titlePreview: string;
                                        summaryPreview: string | null;
                                        status: string;
                                        priority: string;
                                        sprintId: string | null;
                                        sprintOrdinal: number | null;
                                        language: string;
                                        tenantId: string;
                                        createdAt: string;
                                        updatedAt: string;
                                        contentByteLength: number;
                                        contentLineCount: number;
                                        recordByteLengthFloor: number;
                                        relevance: number;
                                        candidateDigest: string;
                                    };
                                    reasons: ("QUERY_MATCH" | "REQUIRED" | "PREFERRED_LATEST" | "CRITICAL")[];
                                    /** @enum {string} */
                                    reasonCode: "ENTRY_LIMIT" | "BYTE_LIMIT" | "LINE_LIMIT";
                                    detailRef: string;
                                }[];
                                nextCursor: string | null;
                            } | {
                                /** @enum {string} */
                                state: "ABSENT";
                                consumer: string;
                                scope: {
                                    /** @enum {string} */
                                    kind: "local-project" | "tenant";
                                    projectId: number;
                                    tenantId: string;
                                };
                                limits: {
                                    maxEntries: number;
                                    maxCandidates: number;
                                    maxBytes: number;
                                    maxLines: number;
                                };
                                selectionRevisionDigest: string;
                                queryDigest: string;
                                scopeDigest: string;
                                limitsDigest: string;
                                candidates: {
                                    id: number;
                                    type: string;
                                    source: string;
                                    titlePreview: string;
                                    summaryPreview: string | null;
                                    status: string;
                                    priority: string;
                                    sprintId: string | null;
                                    sprintOrdinal: number | null;
                                    language: string;
                                    tenantId: string;
                                    createdAt: string;
                                    updatedAt: string;
                                    contentByteLength: number;
                                    contentLineCount: number;
                                    recordByteLengthFloor: number;
                                    relevance: number;
                                    candidateDigest: string;
                                }[];
                                entries: {
                                    entry: {
                                        id: number;
                                        type: string;
                                        source: string;
                                        title: string;
                                        content: string;
                                        summary: string | null;
                                        tags: string;
                                        status: string;
                                        priority: string;
                                        sprint_id: string | null;
                                        sprint_num: number | null;
                                        lang: string;
                                        /** @description JSON object as text */
                                        metadata: string;
                                        tenant_id: string;
                                        created_at: string;
                                        updated_at: string;
                                    };
                                    relevance: number;
                                    contentDigest: string;
                                    reasons: ("QUERY_MATCH" | "REQUIRED" | "PREFERRED_LATEST" | "CRITICAL")[];
                                }[];
                                deferred: {
                                    candidate: {
                                        id: number;
                                        type: string;
                                        source: string;
                                        titlePreview: string;
                                        summaryPreview: string | null;
                                        status: string;
                                        priority: string;
                                        sprintId: string | null;
                                        sprintOrdinal: number | null;
                                        language: string;
                                        tenantId: string;
                                        createdAt: string;
                                        updatedAt: string;
                                        contentByteLength: number;
                                        contentLineCount: number;
                                        recordByteLengthFloor: number;
                                        relevance: number;
                                        candidateDigest: string;
                                    };
                                    reasons: ("QUERY_MATCH" | "REQUIRED" | "PREFERRED_LATEST" | "CRITICAL")[];
                                    /** @enum {string} */
                                    reasonCode: "ENTRY_LIMIT" | "BYTE_LIMIT" | "LINE_LIMIT";
                                    detailRef: string;
                                }[];
                                nextCursor: null;
                            } | {
                                /** @enum {string} */
                                state: "HOLD";
                                consumer: string | null;
                                scope: {
                                    /** @enum {string} */
                                    kind: "local-project" | "tenant";
                                    projectId: number;
                                    tenantId: string;
                                } | null;
                                /** @enum {string} */
                                reasonCode: "INVALID_REQUEST" | "INVALID_LIMITS" | "TENANT_SCOPE_UNAVAILABLE" | "CURSOR_INVALID" | "CURSOR_STALE" | "QUERY_FAILED" | "DETAIL_REFERENCE_INVALID" | "DETAIL_CHANGED" | "RENDER_LIMIT_EXCEEDED";
                                requiredIds: number[];
                            };
                        } | {
                            entry: {
                                id: number;
                                type: string;
                                source: string;
                                title: string;
                                content: string;
                                summary: string | null;
                                tags: string;
                                status: string;
                                priority: string;
                                sprint_id: string | null;
                                sprint_num: number | null;
                                lang: string;
                                /** @description JSON object as text */
                                metadata: string;
                                tenant_id: string;
                                created_at: string;
                                updated_at: string;
                            };
                            relevance: number;
                        }[];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description the HOLD reason code */
                            error: string;
                            view: {
                                /** @enum {string} */
                                state: "HOLD";
                                consumer: string | null;
                                scope: {
                                    /** @enum {string} */
                                    kind: "local-project" | "tenant";
                                    projectId: number;
                                    tenantId: string;
                                } | null;
                                /** @enum {string} */
                                reasonCode: "INVALID_REQUEST" | "INVALID_LIMITS" | "TENANT_SCOPE_UNAVAILABLE" | "CURSOR_INVALID" | "CURSOR_STALE" | "QUERY_FAILED" | "DETAIL_REFERENCE_INVALID" | "DETAIL_CHANGED" | "RENDER_LIMIT_EXCEEDED";
                                requiredIds: number[];
                            };
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/memory/detail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The complete entry of one detail reference, revalidated against the caller's scope (AVAILABLE or a typed HOLD) */
        get: {
            parameters: {
                query?: {
                    /** @description 1 */
                    v?: string | string[];
                    /** @description a detailRef from a search answer */
                    ref?: string | string[];
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {number} */
                            schemaVersion: 1;
                            detail: {
                                /** @enum {string} */
                                state: "AVAILABLE";
                                consumer: string;
                                scope: {
                                    /** @enum {string} */
                                    kind: "local-project" | "tenant";
                                    projectId: number;
                                    tenantId: string;
                                };
                                entry: {
                                    id: number;
                                    type: string;
                                    source: string;
                                    title: string;
                                    content: string;
                                    summary: string | null;
                                    tags: string;
                                    status: string;
                                    priority: string;
                                    sprint_id: string | null;
                                    sprint_num: number | null;
                                    lang: string;
                                    /** @description JSON object as text */
                                    metadata: string;
                                    tenant_id: string;
                                    created_at: string;
                                    updated_at: string;
                                };
                                contentDigest: string;
                            } | {
                                /** @enum {string} */
                                state: "HOLD";
                                consumer: string | null;
                                scope: {
                                    /** @enum {string} */
                                    kind: "local-project" | "tenant";
                                    projectId: number;
                                    tenantId: string;
                                } | null;
                                /** @enum {string} */
                                reasonCode: "INVALID_REQUEST" | "INVALID_LIMITS" | "TENANT_SCOPE_UNAVAILABLE" | "CURSOR_INVALID" | "CURSOR_STALE" | "QUERY_FAILED" | "DETAIL_REFERENCE_INVALID" | "DETAIL_CHANGED" | "RENDER_LIMIT_EXCEEDED";
                                requiredIds: number[];
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/memory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Compatibility projection: the bounded view of the caller's "memory" entries, with a rendered text */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            content: string;
                            /** @enum {number} */
                            schemaVersion: 1;
                            view: {
                                /** @enum {string} */
                                state: "AVAILABLE";
                                consumer: string;
                                scope: {
                                    /** @enum {string} */
                                    kind: "local-project" | "tenant";
                                    projectId: number;
                                    tenantId: string;
                                };
                                limits: {
                                    maxEntries: number;
                                    maxCandidates: number;
                                    maxBytes: number;
                                    maxLines: number;
                                };
                                selectionRevisionDigest: string;
                                queryDigest: string;
                                scopeDigest: string;
                                limitsDigest: string;
                                candidates: {
                                    id: number;
                                    type: string;
                                    source: string;
                                    titlePreview: string;
                                    summaryPreview: string | null;
                                    status: string;
                                    priority: string;
                                    sprintId: string | null;
                                    sprintOrdinal: number | null;
                                    language: string;
                                    tenantId: string;
                                    createdAt: string;
                                    updatedAt: string;
                                    contentByteLength: number;
                                    contentLineCount: number;
                                    recordByteLengthFloor: number;
                                    relevance: number;
                                    candidateDigest: string;
                                }[];
                                entries: {
                                    entry: {
                                        id: number;
                                        type: string;
                                        source: string;
                                        title: string;
                                        content: string;
                                        summary: string | null;
                                        tags: string;
                                        status: string;
                                        priority: string;
                                        sprint_id: string | null;
                                        sprint_num: number | null;
                                        lang: string;
                                        /** @description JSON object as text */
                                        metadata: string;
                                        tenant_id: string;
                                        created_at: string;
                                        updated_at: string;
                                    };
                                    relevance: number;
                                    contentDigest: string;
                                    reasons: ("QUERY_MATCH" | "REQUIRED" | "PREFERRED_LATEST" | "CRITICAL")[];
                                }[];
                                deferred: {
                                    candidate: {
                                        id: number;
                                        type: string;
                                        source: string;
                                        titlePreview: string;
                                        summaryPreview: string | null;
                                        status: string;
                                        priority: string;
                                        sprintId: string | null;
                                        sprintOrdinal: number | null;
                                        language: string;
                                        tenantId: string;
                                        createdAt: string;
                                        updatedAt: string;
                                        contentByteLength: number;
                                        contentLineCount: number;
                                        recordByteLengthFloor: number;
                                        relevance: number;
                                        candidateDigest: string;
                                    };
                                    reasons: ("QUERY_MATCH" | "REQUIRED" | "PREFERRED_LATEST" | "CRITICAL")[];
                                    /** @enum {string} */
                                    reasonCode: "ENTRY_LIMIT" | "BYTE_LIMIT" | "LINE_LIMIT";
                                    detailRef: string;
                                }[];
                                nextCursor: string | null;
                            } | {
                                /** @enum {string} */
                                state: "ABSENT";
                                consumer: string;
                                scope: {
                                    /** @enum {string} */
                                    kind: "local-project" | "tenant";
                                    projectId: number;
                                    tenantId: string;
                                };
                                limits: {
                                    maxEntries: number;
                                    maxCandidates: number;
                                    maxBytes: number;
                                    maxLines: number;
                                };
                                selectionRevisionDigest: string;
                                queryDigest: string;
                                scopeDigest: string;
                                limitsDigest: string;
                                candidates: {
                                    id: number;
                                    type: string;
                                    source: string;
                                    titlePreview: string;
                                    summaryPreview: string | null;
                                    status: string;
                                    priority: string;
                                    sprintId: string | null;
                                    sprintOrdinal: number | null;
                                    language: string;
                                    tenantId: string;
                                    createdAt: string;
                                    updatedAt: string;
                                    contentByteLength: number;
                                    contentLineCount: number;
                                    recordByteLengthFloor: number;
                                    relevance: number;
                                    candidateDigest: string;
                                }[];
                                entries: {
                                    entry: {
                                        id: number;
                                        type: string;
                                        source: string;
                                        title: string;
                                        content: string;
                                        summary: string | null;
                                        tags: string;
                                        status: string;
                                        priority: string;
                                        sprint_id: string | null;
                                        sprint_num: number | null;
                                        lang: string;
                                        /** @description JSON object as text */
                                        metadata: string;
                                        tenant_id: string;
                                        created_at: string;
                                        updated_at: string;
                                    };
                                    relevance: number;
                                    contentDigest: string;
                                    reasons: ("QUERY_MATCH" | "REQUIRED" | "PREFERRED_LATEST" | "CRITICAL")[];
                                }[];
                                deferred: {
                                    candidate: {
                                        id: number;
                                        type: string;
                                        source: string;
                                        titlePreview: string;
                                        summaryPreview: string | null;
                                        status: string;
                                        priority: string;
                                        sprintId: string | null;
                                        sprintOrdinal: number | null;
                                        language: string;
                                        tenantId: string;
                                        createdAt: string;
                                        updatedAt: string;
                                        contentByteLength: number;
                                        contentLineCount: number;
                                        recordByteLengthFloor: number;
                                        relevance: number;
                                        candidateDigest: string;
                                    };
                                    reasons: ("QUERY_MATCH" | "REQUIRED" | "PREFERRED_LATEST" | "CRITICAL")[];
                                    /** @enum {string} */
                                    reasonCode: "ENTRY_LIMIT" | "BYTE_LIMIT" | "LINE_LIMIT";
                                    detailRef: string;
                                }[];
                                nextCursor: null;
                            } | {
                                /** @enum {string} */
                                state: "HOLD";
                                consumer: string | null;
                                scope: {
                                    /** @enum {string} */
                                    kind: "local-project" | "tenant";
                                    projectId: number;
                                    tenantId: string;
                                } | null;
                                /** @enum {string} */
                                reasonCode: "INVALID_REQUEST" | "INVALID_LIMITS" | "TENANT_SCOPE_UNAVAILABLE" | "CURSOR_INVALID" | "CURSOR_STALE" | "QUERY_FAILED" | "DETAIL_REFERENCE_INVALID" | "DETAIL_CHANGED" | "RENDER_LIMIT_EXCEEDED";
                                requiredIds: number[];
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/process/submit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Submit an ExecutionRequest: runs now (202, status running) or parks behind an approval request (202, pending-approval) by its effect class — always parked while control mutations are off */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        description: string;
                        kind?: "task" | "sprint" | "process" | "capability";
                        capabilityTarget?: string | {
                            capability: string;
                            connector?: string;
                        };
                        steps?: string[];
                        processRef?: string;
                        scopeDir?: string;
                        provider?: string;
                        model?: string;
                        actor?: unknown;
                        tenant?: unknown;
                        origin?: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            executionId: string;
                            missionId: string;
                            status: "running" | "pending-approval" | "failed";
                            effectClass: string;
                            reason?: string;
                            approvalId?: string;
                            sprintId?: string;
                            jobId?: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/process/status/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A submission as it really is (its job and sprint read back); another tenant's is not found */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            title: string;
                            kind: string;
                            status: "pending" | "running" | "parked" | "done" | "failed";
                            effectClass: string;
                            reason: string | null;
                            approvalId: string | null;
                            sprintId: string | null;
                            jobId: number | null;
                            progress: {
                                done: number;
                                total: number;
                            };
                            lastResult: {
                                ok: boolean;
                                reason?: string;
                                settleDetail?: "done" | "debt" | "failed";
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/process/result/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A submission as it really is (its job and sprint read back); another tenant's is not found */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            title: string;
                            kind: string;
                            status: "pending" | "running" | "parked" | "done" | "failed";
                            effectClass: string;
                            reason: string | null;
                            approvalId: string | null;
                            sprintId: string | null;
                            jobId: number | null;
                            progress: {
                                done: number;
                                total: number;
                            };
                            lastResult: {
                                ok: boolean;
                                reason?: string;
                                settleDetail?: "done" | "debt" | "failed";
                            } | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/missions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Missions of the caller's tenant, newest first, one page at a time (cursor from nextCursor) */
        get: {
            parameters: {
                query?: {
                    /** @description Missions per page (default 50, at most 200) */
                    limit?: number;
                    /** @description The `nextCursor` of the previous page, unchanged */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            missions: {
                                id: string;
                                renderAs: "checklist" | "goal";
                                status: "pending" | "active" | "completed" | "failed" | "cancelled";
                                title: string;
                                progress: {
                                    done: number;
                                    total: number;
                                };
                                deliverTo: null;
                                lastResult: {
                                    ok: boolean;
                                    reason?: string;
                                    settleDetail?: "done" | "debt" | "failed";
                                } | null;
                                items: {
                                    id: string;
                                    kind: "task" | "sprint" | "capability" | "process";
                                    status: "pending" | "running" | "done" | "failed" | "blocked" | "parked";
                                    renderAs: "task" | "sprint" | "workflow" | "action";
                                    progress: {
                                        done: number;
                                        total: number;
                                    };
                                }[];
                                createdAt: string;
                            }[];
                            /** @description Pass as `cursor` for the next (older) page; null on the last page */
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/missions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One mission; another tenant's is not found */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            renderAs: "checklist" | "goal";
                            status: "pending" | "active" | "completed" | "failed" | "cancelled";
                            title: string;
                            progress: {
                                done: number;
                                total: number;
                            };
                            deliverTo: null;
                            lastResult: {
                                ok: boolean;
                                reason?: string;
                                settleDetail?: "done" | "debt" | "failed";
                            } | null;
                            items: {
                                id: string;
                                kind: "task" | "sprint" | "capability" | "process";
                                status: "pending" | "running" | "done" | "failed" | "blocked" | "parked";
                                renderAs: "task" | "sprint" | "workflow" | "action";
                                progress: {
                                    done: number;
                                    total: number;
                                };
                            }[];
                            createdAt: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/run-flow/propose": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Plan an intent into a durable flow awaiting approval (plan preview + planDigest) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        intentSummary: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            flowId: string;
                            /** @enum {string} */
                            state: "COLLECTING" | "PROPOSAL_READY" | "PREVIEWING" | "AWAITING_APPROVAL" | "APPROVED" | "STARTING" | "DETACHED_RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED" | "BLOCKED";
                            revision: number;
                            planDigest: string | null;
                            proposal: {
                                flowId: string;
                                tenant: string;
                                project: string;
                                actor: {
                                    id: string;
                                    role: string;
                                    tenantId: string;
                                    identityClass: string;
                                    assurance: string;
                                    provenance: string;
                                };
                                origin: string;
                                revision: number;
                                intentSummary: string;
                            };
                            preview: {
                                flowId: string;
                                revision: number;
                                planDigest: string;
                                taskSummaries: {
                                    title: string;
                                    summary: string;
                                }[];
                                policyDecision: string;
                                gateResult: string;
                                writeScopes: {
                                    title: string;
                                    files: string[];
                                }[];
                                warnings: string[];
                            } | null;
                            approvedSnapshot: {
                                flowId: string;
                                revision: number;
                                planDigest: string;
                                approvedBy: {
                                    id: string;
                                    role: string;
                                    tenantId: string;
                                    identityClass: string;
                                    assurance: string;
                                    provenance: string;
                                };
                                approvedAt: string;
                            } | null;
                            handle: {
                                flowId: string;
                                jobId: number;
                                logRef: string;
                            } | null;
                            attemptId: string | null;
                            missionId: string | null;
                            sprintId: string | null;
                            cancelReason: string | null;
                            failureReason: string | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/run-flow/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's flows, newest first, one page at a time (limit 1–200, default 50; cursor from nextCursor) */
        get: {
            parameters: {
                query?: {
                    /** @description flows per page (1–200, default 50) */
                    limit?: number;
                    /** @description the `nextCursor` of the previous page */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description newest first */
                            flows: {
                                flowId: string;
                                /** @enum {string} */
                                state: "COLLECTING" | "PROPOSAL_READY" | "PREVIEWING" | "AWAITING_APPROVAL" | "APPROVED" | "STARTING" | "DETACHED_RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED" | "BLOCKED";
                                intentSummary: string;
                                revision: number;
                                createdAt: string;
                                updatedAt: string;
                            }[];
                            /** @description pass as `cursor` for the next (older) page; null on the last page */
                            nextCursor: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/run-flow/{flowId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A flow (RunFlowContext) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    flowId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            flowId: string;
                            /** @enum {string} */
                            state: "COLLECTING" | "PROPOSAL_READY" | "PREVIEWING" | "AWAITING_APPROVAL" | "APPROVED" | "STARTING" | "DETACHED_RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED" | "BLOCKED";
                            revision: number;
                            planDigest: string | null;
                            proposal: {
                                flowId: string;
                                tenant: string;
                                project: string;
                                actor: {
                                    id: string;
                                    role: string;
                                    tenantId: string;
                                    identityClass: string;
                                    assurance: string;
                                    provenance: string;
                                };
                                origin: string;
                                revision: number;
                                intentSummary: string;
                            };
                            preview: {
                                flowId: string;
                                revision: number;
                                planDigest: string;
                                taskSummaries: {
                                    title: string;
                                    summary: string;
                                }[];
                                policyDecision: string;
                                gateResult: string;
                                writeScopes: {
                                    title: string;
                                    files: string[];
                                }[];
                                warnings: string[];
                            } | null;
                            approvedSnapshot: {
                                flowId: string;
                                revision: number;
                                planDigest: string;
                                approvedBy: {
                                    id: string;
                                    role: string;
                                    tenantId: string;
                                    identityClass: string;
                                    assurance: string;
                                    provenance: string;
                                };
                                approvedAt: string;
                            } | null;
                            handle: {
                                flowId: string;
                                jobId: number;
                                logRef: string;
                            } | null;
                            attemptId: string | null;
                            missionId: string | null;
                            sprintId: string | null;
                            cancelReason: string | null;
                            failureReason: string | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/run-flow/{flowId}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A flow's plan preview */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    flowId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            flowId: string;
                            revision: number;
                            planDigest: string;
                            taskSummaries: {
                                title: string;
                                summary: string;
                            }[];
                            policyDecision: string;
                            gateResult: string;
                            writeScopes: {
                                title: string;
                                files: string[];
                            }[];
                            warnings: string[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/run-flow/{flowId}/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A flow's repository footprint: planned write scopes before it starts, its branches' diff after */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    flowId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            flowId: string;
                            state: string;
                            phase: "planned" | "actual";
                            files: {
                                path: string;
                                insertions: number;
                                deletions: number;
                            }[];
                            insertions: number;
                            deletions: number;
                            tasks: {
                                taskId: string;
                                title: string;
                                status: string;
                                branch: string | null;
                                files: {
                                    path: string;
                                    insertions: number;
                                    deletions: number;
                                }[];
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/run-flow/{flowId}/decision": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve or reject the exact revision + planDigest of a flow awaiting approval */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    flowId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        decision: "approve" | "reject";
                        reason?: string;
                        revision?: number;
                        planDigest?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            flowId: string;
                            /** @enum {string} */
                            state: "COLLECTING" | "PROPOSAL_READY" | "PREVIEWING" | "AWAITING_APPROVAL" | "APPROVED" | "STARTING" | "DETACHED_RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED" | "BLOCKED";
                            revision: number;
                            planDigest: string | null;
                            proposal: {
                                flowId: string;
                                tenant: string;
                                project: string;
                                actor: {
                                    id: string;
                                    role: string;
                                    tenantId: string;
                                    identityClass: string;
                                    assurance: string;
                                    provenance: string;
                                };
                                origin: string;
                                revision: number;
                                intentSummary: string;
                            };
                            preview: {
                                flowId: string;
                                revision: number;
                                planDigest: string;
                                taskSummaries: {
                                    title: string;
                                    summary: string;
                                }[];
                                policyDecision: string;
                                gateResult: string;
                                writeScopes: {
                                    title: string;
                                    files: string[];
                                }[];
                                warnings: string[];
                            } | null;
                            approvedSnapshot: {
                                flowId: string;
                                revision: number;
                                planDigest: string;
                                approvedBy: {
                                    id: string;
                                    role: string;
                                    tenantId: string;
                                    identityClass: string;
                                    assurance: string;
                                    provenance: string;
                                };
                                approvedAt: string;
                            } | null;
                            handle: {
                                flowId: string;
                                jobId: number;
                                logRef: string;
                            } | null;
                            attemptId: string | null;
                            missionId: string | null;
                            sprintId: string | null;
                            cancelReason: string | null;
                            failureReason: string | null;
                            createdAt: string;
                            updatedAt: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            state?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/run-flow/{flowId}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start an approved flow as a detached job (idempotent: a repeat answers duplicate: true) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    flowId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: boolean;
                            started: boolean;
                            duplicate: boolean;
                            attemptId: string | null;
                            context: {
                                flowId: string;
                                /** @enum {string} */
                                state: "COLLECTING" | "PROPOSAL_READY" | "PREVIEWING" | "AWAITING_APPROVAL" | "APPROVED" | "STARTING" | "DETACHED_RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED" | "BLOCKED";
                                revision: number;
                                planDigest: string | null;
                                proposal: {
                                    flowId: string;
                                    tenant: string;
                                    project: string;
                                    actor: {
                                        id: string;
                                        role: string;
                                        tenantId: string;
                                        identityClass: string;
                                        assurance: string;
                                        provenance: string;
                                    };
                                    origin: string;
                                    revision: number;
                                    intentSummary: string;
                                };
                                preview: {
                                    flowId: string;
                                    revision: number;
                                    planDigest: string;
                                    taskSummaries: {
                                        title: string;
                                        summary: string;
                                    }[];
                                    policyDecision: string;
                                    gateResult: string;
                                    writeScopes: {
                                        title: string;
                                        files: string[];
                                    }[];
                                    warnings: string[];
                                } | null;
                                approvedSnapshot: {
                                    flowId: string;
                                    revision: number;
                                    planDigest: string;
                                    approvedBy: {
                                        id: string;
                                        role: string;
                                        tenantId: string;
                                        identityClass: string;
                                        assurance: string;
                                        provenance: string;
                                    };
                                    approvedAt: string;
                                } | null;
                                handle: {
                                    flowId: string;
                                    jobId: number;
                                    logRef: string;
                                } | null;
                                attemptId: string | null;
                                missionId: string | null;
                                sprintId: string | null;
                                cancelReason: string | null;
                                failureReason: string | null;
                                createdAt: string;
                                updatedAt: string;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            state?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/run-flow/{flowId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a flow; a running flow's job is stopped */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    flowId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            context: {
                                flowId: string;
                                /** @enum {string} */
                                state: "COLLECTING" | "PROPOSAL_READY" | "PREVIEWING" | "AWAITING_APPROVAL" | "APPROVED" | "STARTING" | "DETACHED_RUNNING" | "COMPLETED" | "FAILED" | "CANCELLED" | "BLOCKED";
                                revision: number;
                                planDigest: string | null;
                                proposal: {
                                    flowId: string;
                                    tenant: string;
                                    project: string;
                                    actor: {
                                        id: string;
                                        role: string;
                                        tenantId: string;
                                        identityClass: string;
                                        assurance: string;
                                        provenance: string;
                                    };
                                    origin: string;
                                    revision: number;
                                    intentSummary: string;
                                };
                                preview: {
                                    flowId: string;
                                    revision: number;
                                    planDigest: string;
                                    taskSummaries: {
                                        title: string;
                                        summary: string;
                                    }[];
                                    policyDecision: string;
                                    gateResult: string;
                                    writeScopes: {
                                        title: string;
                                        files: string[];
                                    }[];
                                    warnings: string[];
                                } | null;
                                approvedSnapshot: {
                                    flowId: string;
                                    revision: number;
                                    planDigest: string;
                                    approvedBy: {
                                        id: string;
                                        role: string;
                                        tenantId: string;
                                        identityClass: string;
                                        assurance: string;
                                        provenance: string;
                                    };
                                    approvedAt: string;
                                } | null;
                                handle: {
                                    flowId: string;
                                    jobId: number;
                                    logRef: string;
                                } | null;
                                attemptId: string | null;
                                missionId: string | null;
                                sprintId: string | null;
                                cancelReason: string | null;
                                failureReason: string | null;
                                createdAt: string;
                                updatedAt: string;
                            };
                            note?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            state?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/run-flow/{flowId}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SSE of one flow's events (id: sequence); ?after= or Last-Event-ID replays from the durable log */
        get: {
            parameters: {
                query?: {
                    after?: number;
                    /** @description the API token, for EventSource clients that cannot send headers */
                    token?: string;
                };
                header?: never;
                path: {
                    flowId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/event-stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": string;
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sprint/task/{id}/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A task's diff against the base its worktree was made from: files, insertions, deletions, unified diff (capped) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            taskId: string;
                            sprintId: string;
                            title: string;
                            status: string;
                            branch: string | null;
                            base: string | null;
                            head: string | null;
                            files: {
                                path: string;
                                insertions: number;
                                deletions: number;
                            }[];
                            insertions: number;
                            deletions: number;
                            /** @description the unified diff, cut at 64 000 characters (truncated: true) */
                            diff: string;
                            truncated: boolean;
                            /** @description the size of the whole unified diff */
                            diffBytes: number;
                            note?: string;
                            /** @description present while an agent-resolved conflict waits on the branch for review; base is then the merge base with the target, so the diff is the task's changes and the resolution */
                            resolution?: {
                                mergeId: string;
                                target: string;
                                /** @description the resolution commit, the head of the branch */
                                commit: string;
                                /** @description the branch head before the resolution (refs/quartet-resolve/<merge>-<n>-before) */
                                before: string | null;
                                /** @description the files that conflicted */
                                files: string[];
                                reason: string | null;
                                /** @description the command that lands it after review */
                                land: string;
                                /** @description the command that puts the branch back where it was before the resolution */
                                undo: string | null;
                            };
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/merge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The merge queue: its runs, newest first, each with its per-task states and conflicted files (paginated) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    /** @description the `next` of the previous page */
                    before?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description newest first */
                            runs: {
                                id: string;
                                sprintId: string;
                                target: string;
                                strategy: string;
                                /** @description running | done | failed | interrupted (failed: not every task merged, a task RESOLVED and waiting for review included) */
                                status: string;
                                error: string | null;
                                createdAt: string;
                                finishedAt: string | null;
                                items: {
                                    taskId: string;
                                    /** @description QUEUED | MERGING | MERGED | CONFLICT | RESOLVED | CHECK_FAILED | SKIPPED | INTERRUPTED (RESOLVED: an agent resolved the conflict on the task branch, commitSha; it waits for review and lands on a later merge) */
                                    status: string;
                                    files: string[];
                                    commitSha: string | null;
                                    reason: string | null;
                                }[];
                            }[];
                            /** @description pass as `before` for the next (older) page; null on the last page */
                            next: string | null;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Queue the DONE tasks of a sprint (default the newest) or a flow for merging into a branch (default the current one) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        sprintId?: string;
                        flowId?: string;
                        taskIds?: string[];
                        into?: string;
                        strategy?: "merge" | "squash" | "rebase";
                        /** @description a configured command agent: each CONFLICT goes to it; its resolution stays on the task branch (item RESOLVED) for review, and a later merge lands it through the same check */
                        resolveWith?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            sprintId: string;
                            target: string;
                            strategy: string;
                            /** @description running | done | failed | interrupted (failed: not every task merged, a task RESOLVED and waiting for review included) */
                            status: string;
                            error: string | null;
                            createdAt: string;
                            finishedAt: string | null;
                            items: {
                                taskId: string;
                                /** @description QUEUED | MERGING | MERGED | CONFLICT | RESOLVED | CHECK_FAILED | SKIPPED | INTERRUPTED (RESOLVED: an agent resolved the conflict on the task branch, commitSha; it waits for review and lands on a later merge) */
                                status: string;
                                files: string[];
                                commitSha: string | null;
                                reason: string | null;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/merge/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A merge queue run's progress, per task */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            sprintId: string;
                            target: string;
                            strategy: string;
                            /** @description running | done | failed | interrupted (failed: not every task merged, a task RESOLVED and waiting for review included) */
                            status: string;
                            error: string | null;
                            createdAt: string;
                            finishedAt: string | null;
                            items: {
                                taskId: string;
                                /** @description QUEUED | MERGING | MERGED | CONFLICT | RESOLVED | CHECK_FAILED | SKIPPED | INTERRUPTED (RESOLVED: an agent resolved the conflict on the task branch, commitSha; it waits for review and lands on a later merge) */
                                status: string;
                                files: string[];
                                commitSha: string | null;
                                reason: string | null;
                            }[];
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/autonomous/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The autonomous engine: switch, backlog counts, last events, schedules */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            enabled: boolean;
                            policy: string;
                            pendingCount: number;
                            backlogSummary: {
                                total: number;
                                pending: number;
                                running: number;
                                parked: number;
                                done: number;
                                failed: number;
                            };
                            recentAudit: {
                                timestamp: string;
                                action: string;
                                outcome: string;
                                reason: string;
                            }[];
                            schedules: {
                                id: string;
                                cron: string;
                                timezone: string;
                                concurrency: string;
                                lastSlotAt: string | null;
                                nextRunAt: string | null;
                                error?: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/autonomous/pending": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Triggers waiting for a human decision */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            triggerId: string;
                            action: string;
                            requestedBy: string;
                            enqueuedAt: string;
                            expiresAt: string;
                        }[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/autonomous/backlog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Backlog entries (reactive, scheduled, process submissions), newest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            title: string;
                            kind: string;
                            status: string;
                            policy: string;
                            trigger: {
                                [key: string]: unknown;
                            };
                            lastRun: null | {
                                at: string;
                                ok: boolean;
                                reason: string | null;
                            };
                            source: string;
                            correlationId: string;
                            executionId: string | null;
                            createdAt: string;
                        }[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/autonomous/lineage/{correlationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every recorded event of one correlation id */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    correlationId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            correlationId: string;
                            events: {
                                timestamp: string;
                                action: string;
                                outcome: string;
                                reason: string | null;
                                correlationId: string;
                            }[];
                            totalEvents: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/autonomous/approve/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve a waiting trigger: its entry joins the backlog */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            approved: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            code?: string;
                            triggerId?: string;
                            reasonCode?: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            code?: string;
                            triggerId?: string;
                            reasonCode?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/autonomous/reject/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject a waiting trigger: its entry fails */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            rejected: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            code?: string;
                            triggerId?: string;
                            reasonCode?: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            code?: string;
                            triggerId?: string;
                            reasonCode?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/reactive/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Append reactive input to the autonomous backlog (in the caller's tenant) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        source?: string;
                        title?: string;
                        description: string;
                        kind?: "task" | "sprint";
                        correlationId?: string;
                        payload?: unknown;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: boolean;
                            id: string;
                            correlationId: string;
                            status: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{channel}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Connector ingress (generic JSON, Slack, Discord, Telegram, e-mail relay), signed per connector */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    channel: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": unknown;
                    };
                };
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: boolean;
                            id: string;
                            correlationId: string;
                            status: string;
                            target: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/nervous/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Detectors, mode, panic guard and the pending count */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            enabled: boolean;
                            mode: string;
                            panicGuard: boolean;
                            detectors: string[];
                            pendingCount: number;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/nervous/pending": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Detections waiting for a decision, newest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            type: string;
                            description: string;
                            detector: string;
                            subject: string;
                            createdAt: string;
                            risk: "low" | "medium" | "high";
                            evidence: {
                                [key: string]: unknown;
                            };
                        }[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/nervous/recommendations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Open recommendations (all of them with ?all=1) */
        get: {
            parameters: {
                query?: {
                    all?: "1" | "true" | "0" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            eventId: string;
                            action: string;
                            target: string | null;
                            description: string;
                            risk: "low" | "medium" | "high";
                            status: string;
                            outcome: string | null;
                            createdAt: string;
                        }[];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/nervous/accept/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept a detection: its recommendation (stop the task or job) is applied now */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: string;
                            applied: string[];
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/nervous/reject/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject a detection: its recommendations are dismissed */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            rejected: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/nervous/recommendations/dismiss/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Dismiss an open recommendation */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            dismissed: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            dismissed: null;
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/evolution/genealogy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Agent lineage: a node per agent and model, edges where the model changed */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            roots: string[];
                            nodes: {
                                [key: string]: {
                                    agentId: string;
                                    agent: string;
                                    model: string | null;
                                    firstSeen: string;
                                    lastSeen: string;
                                    uses: number;
                                };
                            };
                            edges: {
                                parent: string;
                                child: string;
                            }[];
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/evolution/retirement": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Agents whose recent success rate fell below the threshold */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            retiredAt: string;
                            reason: string;
                            stats: {
                                successRate: number;
                                totalUses: number;
                                sprintsParticipated: number;
                            };
                            source: string;
                        }[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/evolution/prompt-metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Per agent: success by prompt version and the trend */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            agentId: string;
                            currentVersion: string;
                            totalVersions: number;
                            currentSuccessRate: number;
                            trend: "improving" | "declining" | "stable";
                            experimentStatus: "none" | "active" | "completed";
                            versions: {
                                version: string;
                                tasks: number;
                                successRate: number;
                            }[];
                        }[];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rpc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Versioned RPC (version "1.0"): approval.decide, approval.list, limits.get, run.start-detached, run.status, session.list, session.resume */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": unknown;
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            /** @enum {string} */
                            version: "1.0";
                            result?: unknown;
                            error?: {
                                /** @description VERSION_MISMATCH | UNKNOWN_METHOD | METHOD_NOT_IMPLEMENTED | INVALID_PARAMS | INTERNAL_ERROR | FORBIDDEN | NOT_FOUND | CONFLICT */
                                code: string;
                                message: string;
                                data?: unknown;
                            };
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/terminal/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The terminal token (loopback callers holding the API token only; never cached) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            token: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/terminal/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's tenant's sessions */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            kind: "shell" | "ai" | "quartet";
                            tool?: string;
                            tenantId: string;
                            pid: number;
                            createdAt: string;
                            status: "running" | "exited";
                            exitCode?: number;
                            attached: number;
                        }[];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        /** Start a PTY session: shell, ai (an allowed agent CLI) or quartet */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        kind?: "shell" | "ai" | "quartet";
                        tool?: string;
                        args?: string[];
                        cols?: number;
                        rows?: number;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            kind: "shell" | "ai" | "quartet";
                            tool?: string;
                            tenantId: string;
                            pid: number;
                            createdAt: string;
                            status: "running" | "exited";
                            exitCode?: number;
                            attached: number;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/terminal/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Kill a session (its whole process group); an unknown id answers the same */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            ok: boolean;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** One chat reply: built-in commands from live state, anything else from the configured provider */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        message: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            reply: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SSE chat: data frames {type: chunk, text}…, then exactly one {type: done, reply} or {type: error, message} */
        get: {
            parameters: {
                query?: {
                    message?: string;
                    /** @description the API token, for EventSource clients that cannot send headers */
                    token?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/event-stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": string;
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SSE: the event log (id: sequence, event: type); Last-Event-ID or ?after= replays what was missed */
        get: {
            parameters: {
                query?: {
                    after?: number;
                    sprintId?: string;
                    taskId?: string;
                    types?: string;
                    /** @description the API token, for EventSource clients that cannot send headers */
                    token?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/event-stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": string;
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workers/{taskId}/logs/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SSE: `log_line` per line of the worker log (id: byte offset; Last-Event-ID resumes), `log_gap` for a reader too far behind, `log_unavailable` once while it is missing, `log_end` with the final status */
        get: {
            parameters: {
                query?: {
                    token?: string;
                };
                header?: never;
                path: {
                    taskId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/event-stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": string;
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sprint/live/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SSE: `snapshot` whenever the revision rises above sinceRevision, `ping` every 30 s */
        get: {
            parameters: {
                query?: {
                    sinceRevision?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/event-stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": string;
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/output-stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SSE: snapshot of a task's output, then new output lines, then done when the task stops */
        get: {
            parameters: {
                query?: {
                    taskId?: string;
                    sprintId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/event-stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": string;
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
