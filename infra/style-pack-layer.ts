/**
 * The CSL style pack as one Lambda layer, deployed once and attached to the functions that read it
 * (STYLE_PACK_ROUTES, infra/bundling.ts): cite-search, cite-resolve, cite-check, cite-styles and the MCP
 * function. Before, each of the four it was first attached to carried its own copy beside its bundle, 7 MiB of already-compressed data uploaded and
 * stored four times. Lambda extracts a function's layers into /opt, where the functions read the pack
 * (STYLE_PACK_DIR, lib/config.ts); the pack and a function's own zip together count against Lambda's 250 MB
 * unzipped quota for the function and its layers (docs/deploy-and-operations.md, "What the stack creates").
 */
import { DockerImage } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { RUNTIME } from './api-function.js';
import { STYLE_PACK_IN_LAYER, STYLE_PACK_SOURCE, writeStylePackLayer } from './bundling.js';

const ROOT = new URL('..', import.meta.url).pathname;

export class StylePackLayer extends Construct {
  readonly layer: lambda.LayerVersion;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.layer = new lambda.LayerVersion(this, 'Layer', {
      description: 'The CSL style pack (styles and locales of the Citation Style Language project, CC BY-SA 3.0)',
      compatibleRuntimes: [RUNTIME],
      compatibleArchitectures: [lambda.Architecture.ARM_64],
      // The asset is the pack's folder, so that its hash changes with the pack alone; the layer's zip holds
      // it one folder down (STYLE_PACK_IN_LAYER), written here by the same function the tests lay it out with.
      code: lambda.Code.fromAsset(`${ROOT}${STYLE_PACK_SOURCE}`, {
        bundling: {
          local: {
            tryBundle(outputDir) {
              writeStylePackLayer(outputDir);
              return true;
            },
          },
          // Never used where Node runs the synth (the local copy above always succeeds); CDK requires an image.
          image: DockerImage.fromRegistry('public.ecr.aws/docker/library/busybox:stable'),
          command: [
            'sh',
            '-c',
            `mkdir -p /asset-output/${STYLE_PACK_IN_LAYER} && cp -R /asset-input/. /asset-output/${STYLE_PACK_IN_LAYER}/`,
          ],
        },
      }),
    });
  }
}
