package io.inferencegateway.camel;

/** Exchange property names shared by the gateway's processors, binding and upstream producer. */
public final class GatewayExchange {

    /** The id of the {@code direct:} route that serves the request's path and method (set by {@link PathDispatch}). */
    public static final String ROUTE = "gatewayRoute";
    /** That route's {@code direct:} {@link org.apache.camel.Endpoint}, which the ingress's dynamic to sends to. */
    public static final String ROUTE_ENDPOINT = "gatewayRouteEndpoint";
    /** The client's {@link io.netty.handler.codec.http.HttpHeaders}, forwarded upstream end-to-end. */
    public static final String REQUEST_HEADERS = "gatewayRequestHeaders";
    /** The parsed {@link io.inferencegateway.domain.InferenceRequest}. */
    public static final String REQUEST = "gatewayRequest";
    /** The {@link io.inferencegateway.pool.ModelPool} serving the request's model, if any. */
    public static final String MODEL_POOL = "gatewayModelPool";
    /** The {@link io.inferencegateway.pool.Placement} of the request on an endpoint. */
    public static final String PLACEMENT = "gatewayPlacement";

    /**
     * The caller's {@link io.inferencegateway.config.TenantConfig} (its name, models, limits and priority class), set
     * by {@link Authenticate} while {@code spec.auth} is on; absent otherwise.
     */
    public static final String TENANT = "gatewayTenant";
    /**
     * Extra HTTP headers ({@code Map<String, String>}) of the request's response: those of an error the gateway
     * writes itself (e.g. Retry-After), and the rate-limit and auth headers every response carries, relayed ones too.
     */
    public static final String RESPONSE_HEADERS = "gatewayResponseHeaders";

    /** The request's {@link io.inferencegateway.domain.RequestRecord}, while anyone listens. */
    public static final String RECORD = "gatewayRecord";
    /** The {@link io.inferencegateway.runtime.RequestListeners} the record is reported to. */
    public static final String LISTENERS = "gatewayRequestListeners";

    private GatewayExchange() {
    }
}
