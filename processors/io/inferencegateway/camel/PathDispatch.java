package io.inferencegateway.camel;

import java.util.HashMap;
import java.util.Map;

import io.inferencegateway.edge.DispatchTable;
import io.inferencegateway.request.GatewayRequest;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.Expression;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import org.apache.camel.support.service.ServiceHelper;

/**
 * The ingress's dispatch (routes/openai-ingress.camel.yaml) over the table of routes/gateway-beans.camel.yaml
 * (edge/DispatchTable): as a step, it gives the request the route its path and method name (404 and 405 otherwise)
 * and hands the path's {@code {name}} segments to the route as headers; as the ingress's dynamic to's expression, it
 * answers that route's {@code direct:} endpoint itself, resolved once per route, so that Camel does not resolve a URI
 * per request.
 */
public final class PathDispatch implements Processor, Expression {

    /** A route of the table and its {@code direct:} endpoint, resolved on first use (again should Camel stop it). */
    private static final class RouteEndpoint {
        final String route;
        volatile Endpoint endpoint;

        RouteEndpoint(String route) {
            this.route = route;
        }

        Endpoint endpoint(CamelContext camel) {
            Endpoint e = endpoint;
            if (e == null || ServiceHelper.isStopped(e)) {
                e = camel.getEndpoint("direct:" + route);
                endpoint = e;
            }
            return e;
        }
    }

    private final DispatchTable table;
    private final Map<String, RouteEndpoint> targets = new HashMap<>();

    /** @param table the dispatch table's text (see {@link DispatchTable}) */
    public PathDispatch(String table) {
        this.table = new DispatchTable(table);
        for (String route : this.table.routeIds()) {
            targets.put(route, new RouteEndpoint(route));
        }
    }

    @Override
    public void process(Exchange exchange) {
        GatewayRequest request = GatewayExchange.request(exchange);
        DispatchTable.Match match = table.dispatch(request.method(), request.path());
        request.route(match.route());
        String[] names = match.names();
        if (names != null) {
            Message message = exchange.getMessage();
            for (int i = 0; i < names.length; i++) {
                if (names[i] != null) {
                    message.setHeader(names[i], match.values()[i]);
                }
            }
        }
    }

    @Override
    public <T> T evaluate(Exchange exchange, Class<T> type) {
        Endpoint route = targets.get(GatewayExchange.request(exchange).route().id()).endpoint(exchange.getContext());
        return type.isInstance(route) ? type.cast(route) : type.cast(route.getEndpointUri());
    }
}
