import { findClaim } from '../../auth/identities.ts'
import { CLAIM_POLL_INTERVAL_SECONDS } from '../../defaults.ts'
import { ServiceError } from '../../errors.ts'
import { requiredField } from '../../http/forms.ts'
import type { Grant } from './grant.ts'

/**
 * The claim grant: the agent's poll while a person claims its identity. This host completes no
 * claims, so a known claim_token is always still pending.
 */
export const claim: Grant = (ctx) => {
  const register = ctx.url('registerIdentity')
  return async (fields) => {
    const claimToken = requiredField(fields, 'claim_token')
    if (!(await findClaim(ctx.store, claimToken)))
      throw new ServiceError('invalid_grant', `The claim_token is unknown or expired; register again at ${register}.`)
    throw new ServiceError(
      'authorization_pending',
      'The claim is not complete; this host does not complete claims. ' +
        `Poll no faster than every ${CLAIM_POLL_INTERVAL_SECONDS} s, or exchange the identity_assertion instead.`,
    )
  }
}
