/**
 * The service's one logger: Powertools Logger writes one JSON object per line, which CloudWatch Logs
 * Insights and the metric filters read without parsing rules.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { config } from './config.js';

export const logger = new Logger({ serviceName: config.POWERTOOLS_SERVICE_NAME });
