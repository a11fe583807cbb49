import { Icon } from '../../ui/icons.js';

/** "report.final.pdf" → "PDF"; a name without an extension shows its media type's kind. */
function kindOf(name: string, mediaType: string): string {
  const dot = name.lastIndexOf('.');
  if (dot > 0 && dot < name.length - 1)
    return name
      .slice(dot + 1)
      .toUpperCase()
      .slice(0, 4);
  return (mediaType.split('/')[1] ?? mediaType).toUpperCase().slice(0, 4);
}

/** A file that goes (or went) with a message as an attachment, never as text in the prompt. */
export function AttachmentChip({
  name,
  mediaType,
  size,
  onRemove,
  removeLabel,
}: {
  name: string;
  mediaType: string;
  size?: number;
  onRemove?: () => void;
  removeLabel?: string;
}) {
  return (
    <span className="attachment-chip" title={name} data-testid="attachment-chip">
      <span className="attachment-icon" aria-hidden="true">
        <Icon name="file" size={14} />
      </span>
      <span className="attachment-name">{name}</span>
      <span className="attachment-kind">
        {kindOf(name, mediaType)}
        {size !== undefined && ` · ${formatSize(size)}`}
      </span>
      {onRemove && (
        <button type="button" className="attachment-remove" onClick={onRemove} aria-label={removeLabel}>
          ×
        </button>
      )}
    </span>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
