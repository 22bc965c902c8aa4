// Shared with the invitation links; the component lives with the UI primitives.
export { CopyButton } from "@/components/ui/copy-button";
