<%@ WebService Language="C#" Class="Rmm.Objects.ObjectsService" %>
