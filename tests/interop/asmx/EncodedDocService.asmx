<%@ WebService Language="C#" Class="Rmm.Encoded.EncodedDocService" %>
