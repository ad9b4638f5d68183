import { Type } from 'typebox'
import { defineConfigFragment, parseOrigins, Port, type SettingsOf } from '../../core/config/schema.js'

export const tripsConfig = defineConfigFragment({
  service: 'trips',
  schema: Type.Object({
    TRIPS_PORT: Port(3200, 'trips port'),
    TRIPS_JWKS_URL: Type.Optional(Type.String({ pattern: '^https?://', description: 'JWKS of the external identity provider' })),
    TRIPS_ISSUER: Type.Optional(Type.String({ minLength: 1 })),
    TRIPS_AUDIENCE: Type.Optional(Type.String({ minLength: 1 })),
    TRIPS_EMAIL_CLAIM: Type.String({ minLength: 1, default: 'email', description: 'token claim holding the caller e-mail' }),
    TRIPS_COMPAT: Type.Union([Type.Literal('seed'), Type.Literal('original')], { default: 'seed' }),
    TRIPS_AUTHZ: Type.Union([Type.Literal('owner'), Type.Literal('open')], { default: 'owner' }),
    TRIPS_CORS_ORIGINS: Type.String({ default: '*', description: 'comma-separated origins, or *' }),
    TRIPS_TOKEN_MAX_LIFETIME: Type.Integer({
      minimum: 60,
      maximum: 30 * 86400,
      default: 86400,
      description: 'longest token lifetime accepted, in seconds (exp - iat); tokens without exp are refused'
    })
  }),
  refine(env, base) {
    const problems: string[] = []
    if (env.TRIPS_JWKS_URL && (!env.TRIPS_ISSUER || !env.TRIPS_AUDIENCE))
      problems.push('TRIPS_ISSUER and TRIPS_AUDIENCE: required together with TRIPS_JWKS_URL')
    if (base.production && !env.TRIPS_JWKS_URL) problems.push('TRIPS_JWKS_URL: required when QUARTET_ENV=production')
    return problems
  },
  resolve: (env) => ({
    port: env.TRIPS_PORT,
    jwksUrl: env.TRIPS_JWKS_URL,
    issuer: env.TRIPS_ISSUER,
    audience: env.TRIPS_AUDIENCE,
    emailClaim: env.TRIPS_EMAIL_CLAIM,
    compat: env.TRIPS_COMPAT,
    authz: env.TRIPS_AUTHZ,
    corsOrigins: parseOrigins(env.TRIPS_CORS_ORIGINS),
    tokenMaxLifetimeSeconds: env.TRIPS_TOKEN_MAX_LIFETIME
  })
})

export type TripsSettings = SettingsOf<typeof tripsConfig>
