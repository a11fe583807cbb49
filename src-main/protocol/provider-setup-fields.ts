// What an Azure or Bedrock setup field must look like. The gateway refuses a Test connection or a
// Save with these (providers/provider-models.ts setupFieldProblem) and the Control UI checks the same
// patterns before it sends anything, so the two never disagree about the same input.

/** An Azure resource name: the `<name>` of `<name>.openai.azure.com`. */
export const azureResourcePattern = /^[a-z0-9][a-z0-9-]{0,62}$/i;
/** An Azure deployment name, as Azure AI Foundry allows. */
export const azureDeploymentPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** `v1`, or a dated Azure OpenAI api-version such as 2024-10-21 (optionally `-preview`). */
export const azureApiVersionPattern = /^(v1|\d{4}-\d{2}-\d{2}(-preview)?)$/;
/** An AWS region such as us-east-1 or ap-southeast-2. */
export const awsRegionPattern = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;
/** An AWS access key ID (AKIA… long-term, ASIA… temporary). */
export const awsAccessKeyIdPattern = /^[A-Z0-9]{16,128}$/;
