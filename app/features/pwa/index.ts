export { InstallPrompt, INSTALL_DISMISSED_KEY, type InstallPromptProps } from "./InstallPrompt";
export { OfflineBanner, type OfflineBannerProps } from "./OfflineBanner";
export { UpdateToast, type UpdateToastProps } from "./UpdateToast";
export {
  useInstall,
  promptInstall,
  type BeforeInstallPromptEvent,
  type InstallOutcome,
  type InstallState,
  type UseInstall,
} from "./use-install";
export { useServiceWorker, type ServiceWorkerState, type UseServiceWorkerOptions } from "./use-service-worker";
