/**
 * The service's one logger: Powertools Logger writes one JSON object per line, which CloudWatch Logs
 * Insights and the metric filters read without parsing rules.
 */
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'search-citation-api' });
