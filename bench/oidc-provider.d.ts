declare module 'oidc-provider'
