/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base addresses of the five backend areas; each defaults to '/api'. */
  readonly VITE_API_BILLING_URL?: string;
  readonly VITE_API_PROVISIONING_URL?: string;
  readonly VITE_API_USER_URL?: string;
  readonly VITE_API_DEVICE_URL?: string;
  readonly VITE_API_GROUP_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
