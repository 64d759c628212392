<%@ WebService Language="C#" Class="Rmm.Encoded.EncodedService" %>
