package io.inferencegateway.auth;

/**
 * Who a request comes from, once its credentials were checked.
 *
 * @param tenant the tenant's name, from the API key's line or the JWT's tenant claim (never the credential itself)
 * @param method how it was proven
 */
public record Identity(String tenant, Method method) {

    public enum Method {
        API_KEY, JWT
    }
}
