import type { ServiceDeclaration } from '../platform/core/declarations.ts';
import comComum from './erp_agr/com_comum/service.ts';
import gctHistoricoprocesso from './erp_cge/gct_historicoprocesso/service.ts';
import skuProduto from './erp_est/sku_produto/service.ts';
import intLigacaoprodutodeposito from './erp_isl/int_ligacaoprodutodeposito/service.ts';
import intPedidovenda from './erp_isl/int_pedidovenda/service.ts';
import intPrefatura from './erp_isl/int_prefatura/service.ts';
import ctrContratos from './erp_mer/ctr_contratos/service.ts';
import pedPedidos from './erp_mer/ped_pedidos/service.ts';
import cotCotacao from './erp_sup/cot_cotacao/service.ts';
import managementpanel from './hcm/managementpanel/service.ts';
import platformIntegration from './hcm/platform_integration/service.ts';
import authentication from './platform/authentication/service.ts';
import exportsService from './platform/exports/service.ts';
import functions from './platform/functions/service.ts';
import imports from './platform/imports/service.ts';
import jobs from './platform/jobs/service.ts';
import webhooks from './platform/webhooks/service.ts';
import oficina from './tms/oficina/service.ts';
import agenda from './yms/agenda/service.ts';
import patio from './yms/patio/service.ts';

/** Every service this build can serve; PONTE_SERVICES picks a subset per process. */
export const allServices: ServiceDeclaration[] = [
  authentication,
  imports,
  exportsService,
  jobs,
  webhooks,
  functions,
  platformIntegration,
  managementpanel,
  comComum,
  skuProduto,
  cotCotacao,
  intPedidovenda,
  intLigacaoprodutodeposito,
  intPrefatura,
  ctrContratos,
  pedPedidos,
  gctHistoricoprocesso,
  agenda,
  patio,
  oficina,
];
