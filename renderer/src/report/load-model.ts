/** Fetches the model the printing side prepared for this page (same origin, named by `?model=`). */
import type { ReportModel } from '../../../app/contract/report.js';

export async function loadReportModel(location: Pick<Location, 'search'>): Promise<ReportModel> {
  const token = new URLSearchParams(location.search).get('model');
  if (!token || !/^[A-Za-z0-9_-]{8,64}$/.test(token))
    throw new Error('the page was opened without a report model (?model=TOKEN)');
  const response = await fetch(`./report-models/${token}.json`, { cache: 'no-store' });
  if (!response.ok) throw new Error(`the report model was not found (HTTP ${response.status})`);
  return (await response.json()) as ReportModel;
}
