package io.inferencegateway.simulator;

/** vLLM's error body: {"object":"error","message":...,"type":...,"param":null,"code":...}. */
record ApiError(int status, String type, String message) {

    static ApiError notFound(String message) {
        return new ApiError(404, "NotFoundError", message);
    }

    static ApiError badRequest(String message) {
        return new ApiError(400, "BadRequestError", message);
    }

    /** What an overloaded or restarting server answers; the fault the admin API injects with {@code inference?fault=unavailable}. */
    static ApiError unavailable(String message) {
        return new ApiError(503, "ServiceUnavailableError", message);
    }

    /** A failure of the server's own; the fault the admin API injects with {@code inference?fault=errors&share=S}. */
    static ApiError internal(String message) {
        return new ApiError(500, "InternalServerError", message);
    }

    static ApiError unknownModel(String model) {
        return notFound("The model `" + model + "` does not exist.");
    }

    String json() {
        return "{\"object\":\"error\",\"message\":" + Json.quote(message) + ",\"type\":\"" + type
                + "\",\"param\":null,\"code\":" + status + "}";
    }
}
