export { InstallPrompt, INSTALL_DISMISSED_KEY, type InstallPromptProps } from "./ui/InstallPrompt";
export { OfflineBanner, type OfflineBannerProps } from "./ui/OfflineBanner";
export { UpdateToast, type UpdateToastProps } from "./ui/UpdateToast";
export {
  useInstall,
  promptInstall,
  type BeforeInstallPromptEvent,
  type InstallOutcome,
  type InstallState,
  type UseInstall,
} from "./ui/use-install";
export { useServiceWorker, type ServiceWorkerState, type UseServiceWorkerOptions } from "./ui/use-service-worker";
